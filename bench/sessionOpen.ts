/**
 * Opening a long session: a file-store log of 120,000 events (20,000 short turns, about 14 MB)
 * written by the file store itself.
 *
 * - `fileStore(path)`: read, parse and validate every line (R37), then close;
 * - `createAgent` on it: `fileStore(path)` and `createAgent({model, store})`, until it returns;
 * - the floor: `readFileSync` the same file and `JSON.parse` each line, nothing checked.
 *
 * Each subject runs in its own child process: one warm-up open, then the median of three.
 * Medians of RUNS children. `node --expose-gc --import tsx bench/sessionOpen.ts`.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { firstValueFrom, from } from 'rxjs'
import { childArgs, childDone, inChild } from './lib/children.js'
import { turnEvents } from './lib/longHistory.js'
import { appendTo, collect, median, progress, type Row, report } from './lib/report.js'

const EVENTS = 120_000
const RUNS = Number(process.env.BENCH_RUNS ?? 3)
type Measure = 'open' | 'agent' | 'floor'

const child = async (measure: Measure, path: string): Promise<number> => {
  const { steerable } = await import('./lib/built.js')
  const once = (): number => {
    const t0 = performance.now()
    if (measure === 'floor') {
      const values: unknown[] = []
      for (const line of readFileSync(path, 'utf8').split('\n'))
        if (line.length > 0) values.push(JSON.parse(line))
      if (values.length < EVENTS) throw new Error(`read ${values.length} lines`)
      return performance.now() - t0
    }
    const store = steerable.fileStore(path)
    if (measure === 'open') {
      const t1 = performance.now()
      if (store.load().length !== EVENTS) throw new Error('wrong event count')
      store.close?.()
      return t1 - t0
    }
    const agent = steerable.createAgent({ model: () => [], store })
    const t1 = performance.now()
    if (agent.session.events.length !== EVENTS) throw new Error('wrong event count')
    store.close?.()
    return t1 - t0
  }
  once()
  const times: number[] = []
  for (let i = 0; i < 3; i++) {
    collect()
    times.push(once())
  }
  return median(times)
}

const args = childArgs()
if (args) childDone({ value: await child(args[0] as Measure, args[1] as string) })

const { steerable } = await import('./lib/built.js')
const dir = mkdtempSync(join(tmpdir(), 'steerable-bench-open-'))
const path = join(dir, 'long.jsonl')
{
  const store = steerable.fileStore(path)
  for (let turn = 1, seq = 1; seq <= EVENTS; turn++, seq += 6) store.append(turnEvents(turn, seq))
  await firstValueFrom(from(store.flush()), { defaultValue: undefined })
  store.close?.()
}
const mib = statSync(path).size / 2 ** 20
const script = fileURLToPath(import.meta.url)
const samples = new Map<Measure, number[]>()
for (let run = 1; run <= RUNS; run++) {
  for (const measure of ['floor', 'open', 'agent'] as const) {
    const r = inChild<{ value: number }>(script, [measure, path])
    if (r) appendTo(samples, measure, r.value)
  }
  progress(`sessionOpen: run ${run}/${RUNS}`)
}
rmSync(dir, { recursive: true, force: true })

const floor = { value: median(samples.get('floor') ?? []) }
const runs = (m: Measure) => `${samples.get(m)?.length ?? 0}/-/-/${samples.get('floor')?.length ?? 0}`
const section = `open a long session: a file-store log of ${EVENTS.toLocaleString('en-US')} events (${mib.toFixed(1)} MiB); floor: readFileSync + JSON.parse per line`
const rows: Row[] = [
  {
    section,
    measure: 'fileStore(path): read and validate',
    unit: 'ms',
    runs: runs('open'),
    cells: { steerable: { value: median(samples.get('open') ?? []) }, floor },
  },
  {
    section,
    measure: 'fileStore(path) + createAgent on it',
    unit: 'ms',
    runs: runs('agent'),
    cells: { steerable: { value: median(samples.get('agent') ?? []) }, floor },
  },
]
report('sessionOpen', rows)
