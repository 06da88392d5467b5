/**
 * Drain. 10,000 and 100,000 followups are queued while a turn is held open;
 * then the turn is released and every queued followup runs as its own turn (the peer's `all`
 * mode instead hands all of them to one turn: its own semantics, shown beside). Reports the time
 * from the release to idle, and t(100k) ÷ t(10k): 10 is linear, 100 quadratic.
 *
 * A drain that runs past BUDGET_S seconds is stopped (the queue is discarded) and reported as
 * "> BUDGET s (extrapolated N s)": the per-turn cost of each block of 1,000 turns is fitted with
 * a line over the turn index (a turn that copies the queue or the history costs in proportion to
 * one of them) and summed over all the turns.
 *
 * `node --expose-gc --import tsx bench/drain.ts`. Medians of RUNS runs; a 100k drain that took
 * longer than REPEAT_UNDER_S seconds runs once.
 */
import { performance } from 'node:perf_hooks'
import {
  appendTo,
  type Cell,
  collect,
  median,
  progress,
  type Row,
  report,
  rotated,
  SUBJECTS,
} from './lib/report.js'
import { type Factory, loadSubjects } from './lib/subjects.js'

const RUNS = Number(process.env.BENCH_RUNS ?? 3)
const BUDGET_S = Number(process.env.BENCH_DRAIN_BUDGET_S ?? 60)
const REPEAT_UNDER_S = 15
const BLOCK = 1_000
const SMALL = 10_000
const LARGE = 100_000
const { factories } = await loadSubjects()
const present = SUBJECTS.filter((s) => factories[s])

type Drain = { readonly ms: number; readonly capped: boolean; readonly turns: number }

/** Least-squares line through (index, µs per turn) of the blocks, summed over `n` turns, in ms. */
const extrapolate = (blocks: readonly { at: number; us: number }[], n: number): number => {
  const k = blocks.length
  const mx = blocks.reduce((a, b) => a + b.at, 0) / k
  const my = blocks.reduce((a, b) => a + b.us, 0) / k
  const sxx = blocks.reduce((a, b) => a + (b.at - mx) ** 2, 0)
  const slope = sxx === 0 ? 0 : blocks.reduce((a, b) => a + (b.at - mx) * (b.us - my), 0) / sxx
  const intercept = my - slope * mx
  return (intercept * n + (slope * n * (n - 1)) / 2) / 1000
}

const drainOnce = async (make: Factory, n: number): Promise<Drain> => {
  let calls = 0
  let t0 = 0
  let blockStart = 0
  let capped = false
  const blocks: { at: number; us: number }[] = []
  const h = make({
    onModelCall: () => {
      calls++
      if (calls === 1 || capped) return // the held turn, or a turn after the stop
      const turn = calls - 2 // index of the queued followup this turn runs
      if (turn % BLOCK === 0 && turn > 0) {
        const now = performance.now()
        blocks.push({ at: turn - BLOCK / 2, us: ((now - blockStart) * 1000) / BLOCK })
        blockStart = now
        if (now - t0 > BUDGET_S * 1000) {
          capped = true
          queueMicrotask(() => h.discard())
        }
      }
    },
  })
  await h.hold('first')
  for (let i = 0; i < n; i++) h.send('a queued followup')
  collect()
  t0 = performance.now()
  blockStart = t0
  h.release()
  await h.whenIdle()
  const ms = performance.now() - t0
  await h.dispose()
  const turns = calls - 1
  return capped ? { ms: extrapolate(blocks, n), capped, turns } : { ms, capped, turns }
}

const results = new Map<string, Drain[]>()
const add = (key: string, d: Drain) => appendTo(results, key, d)

for (const s of present) {
  const make = factories[s]
  if (make) await drainOnce(make, 2_000) // warm-up
}
for (let run = 1; run <= RUNS; run++) {
  const order = rotated(present, run)
  for (const s of order) {
    const make = factories[s]
    if (!make) continue
    collect()
    add(`${SMALL}/${s}`, await drainOnce(make, SMALL))
  }
  progress(`drain ${SMALL.toLocaleString('en-US')}: run ${run}/${RUNS}`)
}
for (const s of present) {
  const make = factories[s]
  if (!make) continue
  for (let run = 1; run <= RUNS; run++) {
    collect()
    const d = await drainOnce(make, LARGE)
    add(`${LARGE}/${s}`, d)
    progress(
      `drain ${LARGE.toLocaleString('en-US')}, ${s}: ${(d.ms / 1000).toFixed(1)} s${d.capped ? ` (stopped after ${d.turns.toLocaleString('en-US')} turns, extrapolated)` : ''}`,
    )
    if (d.capped || d.ms > REPEAT_UNDER_S * 1000) break
  }
}

const cell = (key: string, unit: 'ms' | 's'): Cell | undefined => {
  const ds = results.get(key)
  if (!ds || ds.length === 0) return undefined
  const capped = ds.some((d) => d.capped)
  const ms = median(ds.map((d) => d.ms))
  const value = unit === 's' ? ms / 1000 : ms
  if (!capped) return { value }
  return {
    value,
    bound: true,
    text: `> ${BUDGET_S} s (extrapolated ${Math.round(ms / 1000).toLocaleString('en-US')} s)`,
  }
}
const runsOf = (n: number) => present.map((s) => results.get(`${n}/${s}`)?.length ?? 0).join('/')
const section = 'drain: N followups queued, then each runs as its own turn (pi all: one turn for all)'
const small = Object.fromEntries(present.map((s) => [s, cell(`${SMALL}/${s}`, 'ms')] as const))
const large = Object.fromEntries(present.map((s) => [s, cell(`${LARGE}/${s}`, 's')] as const))
const ratio = Object.fromEntries(
  present.map((s) => {
    const a = large[s]
    const b = small[s]
    if (!a || !b) return [s, undefined] as const
    const r = (a.value * 1000) / b.value
    return [s, a.bound ? { value: r, bound: true, text: `> ${r.toFixed(0)}×` } : { value: r }] as const
  }),
)
const rows: Row[] = [
  { section, measure: `t(${SMALL.toLocaleString('en-US')})`, unit: 'ms', runs: runsOf(SMALL), cells: small },
  { section, measure: `t(${LARGE.toLocaleString('en-US')})`, unit: 's', runs: runsOf(LARGE), cells: large },
  {
    section,
    measure: `t(${LARGE.toLocaleString('en-US')}) ÷ t(${SMALL.toLocaleString('en-US')}) (linear = 10)`,
    unit: '×',
    runs: '',
    cells: ratio,
    noRatios: true,
  },
]
report('drain', rows)
