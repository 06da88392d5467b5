/**
 * Turn overhead. 10,000 sequential turns with a model that answers at once
 * (steerable and the floor: `followup()` then `whenIdle()`; the peer: `await prompt()`):
 *
 * - bare: a fresh agent every 100 turns (creating and disposing it is not timed), so the
 *   transcript stays short: the per-turn cost of the machinery itself;
 * - growing: one agent for all 10,000 turns (no clearing); the per-turn cost of the first and
 *   of the last 1,000 turns shows whether it stays flat as the transcript grows.
 *
 * The peer's queue mode does not matter here (no queued follow-ups), so it runs in its default.
 * `node --expose-gc --import tsx bench/turns.ts`. Medians of RUNS runs (5: the bare turn moves by
 * ±30% between runs on this shared machine) after a warm-up.
 */
import { performance } from 'node:perf_hooks'
import {
  appendTo,
  collect,
  median,
  progress,
  type Row,
  report,
  rotated,
  type SubjectId,
} from './lib/report.js'
import { type Factory, loadSubjects } from './lib/subjects.js'

const TURNS = Number(process.env.BENCH_TURNS ?? 10_000)
const PER_AGENT = 100
const BLOCK = 1_000
const WARM_AFTER_GC = 4_000
const RUNS = Number(process.env.BENCH_RUNS ?? 5)
const { factories } = await loadSubjects()
const present = (['steerable', 'pi', 'floor'] as const).filter((s) => factories[s])

/** µs per turn, fresh harness every PER_AGENT turns. */
const bare = async (make: Factory, turns: number): Promise<number> => {
  let elapsed = 0
  for (let done = 0; done < turns; done += PER_AGENT) {
    const h = make()
    const t0 = performance.now()
    for (let i = 0; i < PER_AGENT; i++) await h.turn('a question')
    elapsed += performance.now() - t0
    await h.dispose()
  }
  return (elapsed * 1000) / turns
}

/** µs per turn of each block of BLOCK turns, one harness for all the turns. */
const growing = async (make: Factory, turns: number): Promise<number[]> => {
  const h = make()
  const blocks: number[] = []
  let t0 = performance.now()
  for (let i = 1; i <= turns; i++) {
    await h.turn('a question')
    if (i % BLOCK === 0) {
      const t1 = performance.now()
      blocks.push(((t1 - t0) * 1000) / BLOCK)
      t0 = t1
    }
  }
  await h.dispose()
  return blocks
}

const bareUs = new Map<SubjectId, number[]>()
const firstUs = new Map<SubjectId, number[]>()
const lastUs = new Map<SubjectId, number[]>()
const push = (m: Map<SubjectId, number[]>, s: SubjectId, v: number) => appendTo(m, s, v)

for (const s of present) {
  const make = factories[s]
  if (make) await bare(make, 2_000) // warm-up
}
for (let run = 1; run <= RUNS; run++) {
  const order = rotated(present, run)
  for (const s of order) {
    const make = factories[s]
    if (!make) continue
    // A full GC shrinks the heap, and the turns right after it pay for regrowing it. It also
    // deoptimizes the code that inlined objects which died in it (V8's --trace-deopt says
    // 'weak objects': the closures of the agents just disposed), and the first thousands of
    // turns after it run re-optimizing (measured: steerable 2-5x slower over its first 2,000
    // turns, the peer 1.1-1.4x). So: warm up WARM_AFTER_GC turns after the GC, and start the
    // growing run right after the bare one (no GC in between).
    collect()
    await bare(make, WARM_AFTER_GC)
    push(bareUs, s, await bare(make, TURNS))
    const blocks = await growing(make, TURNS)
    push(firstUs, s, blocks[0] ?? Number.NaN)
    push(lastUs, s, blocks.at(-1) ?? Number.NaN)
  }
  progress(`turns: run ${run}/${RUNS}`)
}

const cells = (m: Map<SubjectId, number[]>) =>
  Object.fromEntries(present.map((s) => [s, { value: median(m.get(s) ?? []) }] as const))
const section = `turn overhead: ${TURNS.toLocaleString('en-US')} sequential turns, model answers at once`
const flat = Object.fromEntries(
  present.map((s) => {
    const ratios = (lastUs.get(s) ?? []).map((last, i) => last / (firstUs.get(s)?.[i] ?? Number.NaN))
    return [s, { value: median(ratios) }] as const
  }),
)
const rows: Row[] = [
  {
    section,
    measure: `bare turn (fresh agent every ${PER_AGENT} turns)`,
    unit: 'µs',
    runs: String(RUNS),
    cells: cells(bareUs),
  },
  {
    section,
    measure: 'growing transcript: first 1,000 turns, per turn',
    unit: 'µs',
    runs: String(RUNS),
    cells: cells(firstUs),
  },
  {
    section,
    measure: 'growing transcript: last 1,000 turns, per turn',
    unit: 'µs',
    runs: String(RUNS),
    cells: cells(lastUs),
  },
  {
    section,
    measure: 'growing transcript: last ÷ first (flat = 1)',
    unit: '×',
    runs: String(RUNS),
    cells: flat,
    noRatios: true,
  },
]
report('turns', rows)
