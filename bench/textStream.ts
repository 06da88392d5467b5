/**
 * `agent.text$` (R82) against `agent.events$`: one turn whose model streams N text deltas (10,000
 * and 100,000), with one subscriber, either on `events$` counting the `agent/stream/delta` events
 * (as bench/streaming.ts does) or on `text$` keeping the accumulated text's length. µs per delta
 * from the send to idle, so each figure is the whole pipeline's cost per delta plus the
 * subscriber's; their ratio is what `text$` adds. The ratio of the two sizes shows whether the
 * cost per delta stays flat: `text$` must not copy the text so far on each delta.
 *
 * Each measure runs in its own child process: five warm-up turns of 10,000 deltas, then the median
 * of five measured turns; medians of RUNS children, the two subscribers alternating.
 * `node --expose-gc --import tsx bench/textStream.ts` after `npm run build`, or
 * `BENCH_ONLY=textStream npm run bench`. Prints its own table.
 */
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { Observable } from 'rxjs'
import type { ModelEvent } from '../src/index.js'
import { childArgs, childDone, inChild } from './lib/children.js'
import { appendTo, machineInfo, median, progress, rotated } from './lib/report.js'

const SIZES = [10_000, 100_000] as const
const RUNS = Number(process.env.BENCH_RUNS ?? 3)
type Reader = 'events$' | 'text$'
const READERS: readonly Reader[] = ['events$', 'text$']

const child = async (reader: Reader, deltas: number): Promise<number> => {
  const { steerable } = await import('./lib/built.js')
  const run = async (n: number) => {
    // A new event object per delta, as a real adapter makes.
    const model = () =>
      new Observable<ModelEvent>((subscriber) => {
        for (let i = 0; i < n && !subscriber.closed; i++) subscriber.next({ type: 'text', text: 'x' })
        subscriber.next({ type: 'finish', reason: 'stop' })
        subscriber.complete()
      })
    const agent = steerable.createAgent({ model })
    let seen = 0
    if (reader === 'events$')
      agent.events$.subscribe((e) => {
        if (e.type === 'agent/stream/delta') seen++
      })
    else
      agent.text$.subscribe((t) => {
        seen = t.text.length
      })
    const t0 = performance.now()
    agent.followup('stream please')
    await agent.whenIdle()
    const elapsed = performance.now() - t0
    if (seen !== n) throw new Error(`${reader}: saw ${seen} deltas, not ${n}`)
    return (elapsed * 1000) / n
  }
  for (let i = 0; i < 5; i++) await run(10_000)
  const measured: number[] = []
  for (let i = 0; i < 5; i++) measured.push(await run(deltas))
  return median(measured)
}

const args = childArgs()
if (args) childDone({ value: await child(args[0] as Reader, Number(args[1])) })

const started = Date.now()
const script = fileURLToPath(import.meta.url)
const samples = new Map<string, number[]>()
for (let run = 1; run <= RUNS; run++) {
  for (const size of SIZES)
    for (const reader of rotated(READERS, run)) {
      const r = inChild<{ value: number }>(script, [reader, String(size)])
      if (r) appendTo(samples, `${size}/${reader}`, r.value)
    }
  progress(`textStream: run ${run}/${RUNS}`)
}

const med = (size: number, reader: Reader) => median(samples.get(`${size}/${reader}`) ?? [])
const us = (v: number) => `${v.toFixed(2)} µs`
const times = (v: number) => `${v.toFixed(2)}×`
type Line = readonly [measure: string, eventsSide: string, textSide: string, ratio: string, target: string]
const lines: Line[] = [
  ...SIZES.map(
    (size): Line => [
      `${size.toLocaleString('en-US')} deltas, per delta`,
      us(med(size, 'events$')),
      us(med(size, 'text$')),
      times(med(size, 'text$') / med(size, 'events$')),
      '≤ 1.2×',
    ],
  ),
  [
    'per delta at 100,000 ÷ at 10,000 (linear = 1)',
    times(med(SIZES[1], 'events$') / med(SIZES[0], 'events$')),
    times(med(SIZES[1], 'text$') / med(SIZES[0], 'text$')),
    '',
    'linear',
  ],
]
const header = ['measure', 'events$', 'text$', 'text$ ÷ events$', 'target'] as const
const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)))
const line = (cells: readonly string[]) =>
  cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')

console.log('\ntextStream benchmark: N text deltas in one turn, one subscriber (child process each, dist/)')
console.log(machineInfo())
console.log(`total time: ${((Date.now() - started) / 1000).toFixed(0)} s, ${RUNS} runs per median\n`)
console.log(line(header))
console.log(widths.map((w) => '-'.repeat(w)).join('-|-'))
for (const l of lines) console.log(line(l))
