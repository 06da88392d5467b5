/**
 * Streaming: one turn whose model streams N text deltas (10,000 and 100,000), with one subscriber
 * counting them (steerable: `events$`' `agent/stream/delta`; the peer: `message_update` events
 * carrying a `text_delta`). µs per delta from the send to idle; the ratio of the two sizes shows
 * whether the cost per delta stays flat. Each model makes a new event object per delta, as a
 * real adapter does (the peer's also updates the partial message, as its providers do).
 *
 * Each measure runs in its own child process: five warm-up turns of 10,000 deltas, then the median
 * of five measured turns; medians of RUNS children. `node --expose-gc --import tsx bench/streaming.ts` (or `npm run bench`).
 */
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { childArgs, childDone, inChild } from './lib/children.js'
import { ensurePeers } from './lib/peers.js'
import { appendTo, median, progress, type Row, report, rotated, type SubjectId } from './lib/report.js'

const SIZES = [10_000, 100_000] as const
const RUNS = Number(process.env.BENCH_RUNS ?? 3)

const child = async (subject: SubjectId, deltas: number): Promise<number> => {
  const { minimal } = await import('./lib/minimal.js')
  const run = async (n: number) => {
    const m = await minimal(subject, n)
    const agent = m.make()
    const counter = { n: 0 }
    m.countDeltas(agent, counter)
    const t0 = performance.now()
    await m.turn(agent, 'stream please')
    const elapsed = performance.now() - t0
    if (counter.n !== n) throw new Error(`${subject}: counted ${counter.n} deltas, not ${n}`)
    return (elapsed * 1000) / n
  }
  // Cold, steerable's first turns of 10,000 deltas run 3-8x slower while V8 optimizes (the
  // peer's about 1.5x): warm up first. No full GC before the measure: it deoptimizes code that
  // inlined the warm-up agents' closures (see bench/turns.ts).
  for (let i = 0; i < 5; i++) await run(10_000)
  // The median of five measured turns: one turn of 10,000 deltas lasts a few milliseconds, and a
  // single one caught a major GC or a deoptimization often enough to move the row by 4x.
  const measured: number[] = []
  for (let i = 0; i < 5; i++) measured.push(await run(deltas))
  return median(measured)
}

const args = childArgs()
if (args) childDone({ value: await child(args[0] as SubjectId, Number(args[1])) })

const present: SubjectId[] = ensurePeers() ? ['steerable', 'pi'] : ['steerable']
const script = fileURLToPath(import.meta.url)
const samples = new Map<string, number[]>()
for (let run = 1; run <= RUNS; run++) {
  for (const size of SIZES)
    for (const s of rotated(present, run)) {
      const r = inChild<{ value: number }>(script, [s, String(size)])
      if (r) appendTo(samples, `${size}/${s}`, r.value)
    }
  progress(`streaming: run ${run}/${RUNS}`)
}

const section = 'streaming: N text deltas in one turn, one subscriber counting them (child process each)'
const med = (size: number, s: SubjectId) => median(samples.get(`${size}/${s}`) ?? [])
const runs = (size: number) => present.map((s) => samples.get(`${size}/${s}`)?.length ?? 0).join('/')
const rows: Row[] = [
  ...SIZES.map(
    (size): Row => ({
      section,
      measure: `${size.toLocaleString('en-US')} deltas, per delta`,
      unit: 'µs',
      runs: runs(size),
      cells: Object.fromEntries(present.map((s) => [s, { value: med(size, s) }] as const)),
    }),
  ),
  {
    section,
    measure: 'per delta at 100,000 ÷ at 10,000 (linear = 1)',
    unit: '×',
    runs: runs(SIZES[1]),
    noRatios: true,
    cells: Object.fromEntries(
      present.map((s) => [s, { value: med(SIZES[1], s) / med(SIZES[0], s) }] as const),
    ),
  },
]
report('streaming', rows)
