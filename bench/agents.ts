/**
 * Many agents in one process: what an open idle agent costs, and how fast one starts.
 *
 * - idle heap: 10,000 agents, each after one short turn, all kept open; `heapUsed` after a full
 *   GC, after minus before, ÷ 10,000 (the shared model and modules excluded). From it, how many
 *   such sessions one GiB of heap holds.
 * - create + first turn: create an agent and run its first short turn (steerable and the floor:
 *   followup + whenIdle; the peer: `prompt`), 5,000 agents after 2,000 of warm-up, none kept;
 *   and the same with one events$ subscriber on each agent first, as an app keeps one.
 *
 * Each measure of each subject runs in its own child process (bench/lib/children.ts); medians of
 * RUNS children. `node --expose-gc --import tsx bench/agents.ts` (or `npm run bench`).
 */
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { childArgs, childDone, inChild } from './lib/children.js'
import { ensurePeers } from './lib/peers.js'
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

const IDLE = Number(process.env.BENCH_IDLE_AGENTS ?? 10_000)
const CREATE = 5_000
const CREATE_WARM = 2_000
const RUNS = Number(process.env.BENCH_RUNS ?? 3)

type Measure = 'idle' | 'create' | 'listened'

const child = async (subject: SubjectId, measure: Measure): Promise<number> => {
  const { minimal } = await import('./lib/minimal.js')
  const m = await minimal(subject)
  if (measure === 'idle') {
    const kept: unknown[] = new Array(IDLE)
    collect()
    const heap0 = process.memoryUsage().heapUsed
    for (let i = 0; i < IDLE; i++) {
      const agent = m.make()
      await m.turn(agent, 'a short question')
      kept[i] = agent
    }
    collect()
    const heap1 = process.memoryUsage().heapUsed
    if (kept.length !== IDLE) throw new Error('unreachable: keeps the agents alive until here')
    return (heap1 - heap0) / IDLE
  }
  // 'listened': as an app does, one events$ subscriber on each agent before its first turn.
  const counter = { n: 0 }
  const start = (): Promise<void> => {
    const agent = m.make()
    if (measure === 'listened') m.countDeltas(agent, counter)
    return m.turn(agent, 'a short question')
  }
  for (let i = 0; i < CREATE_WARM; i++) await start()
  collect()
  const t0 = performance.now()
  for (let i = 0; i < CREATE; i++) await start()
  return ((performance.now() - t0) * 1000) / CREATE
}

const args = childArgs()
if (args) childDone({ value: await child(args[0] as SubjectId, args[1] as Measure) })

const present: SubjectId[] = ensurePeers() ? ['steerable', 'pi', 'floor'] : ['steerable', 'floor']
const script = fileURLToPath(import.meta.url)
const samples = new Map<string, number[]>()
for (let run = 1; run <= RUNS; run++) {
  for (const measure of ['idle', 'create', 'listened'] as const)
    for (const s of rotated(present, run)) {
      const r = inChild<{ value: number }>(script, [s, measure])
      if (r) appendTo(samples, `${measure}/${s}`, r.value)
    }
  progress(`agents: run ${run}/${RUNS}`)
}

const cells = (measure: Measure, f = (x: number) => x) =>
  Object.fromEntries(
    present.flatMap((s) => {
      const xs = samples.get(`${measure}/${s}`) ?? []
      return xs.length > 0 ? [[s, { value: f(median(xs)) }] as const] : []
    }),
  )
const runs = (measure: Measure) => present.map((s) => samples.get(`${measure}/${s}`)?.length ?? 0).join('/')
const section = 'many agents: open idle agents, and starting one (child process each)'
const rows: Row[] = [
  {
    section,
    measure: `heap per open idle agent after one short turn (${IDLE.toLocaleString('en-US')} agents, after GC)`,
    unit: 'KiB',
    runs: runs('idle'),
    cells: cells('idle', (b) => b / 1024),
  },
  {
    section,
    measure: 'idle sessions per GiB of heap (from the row above)',
    unit: 'count',
    runs: runs('idle'),
    cells: cells('idle', (b) => 2 ** 30 / b),
  },
  {
    section,
    measure: 'create an agent and run its first short turn',
    unit: 'µs',
    runs: runs('create'),
    cells: cells('create'),
  },
  {
    section,
    measure: 'the same with one events$ subscriber on the agent (as an app keeps one)',
    unit: 'µs',
    runs: runs('listened'),
    cells: cells('listened'),
  },
]
collect()
report('agents', rows)
