/**
 * Many sessions in one worker: open idle agents over a file-store directory, and waking released
 * agents.
 *
 * - open over files: SESSIONS (default 100,000) session logs of one short turn each in one
 *   directory; each opened with `fileStore(path)` and `createAgent({model, store})` and kept open
 *   idle. Heap per agent (after a full GC, after minus before, ÷ SESSIONS) and the process's RSS.
 *   An idle agent holds no pipeline and its store no file descriptor, so the count is bounded by
 *   memory, not by the process's open-file limit. steerable only (the peer keeps no files).
 * - wake: WAKE (default 10,000) agents, each after one short turn (released: idle), then woken
 *   by one `followup` each, one after the other, until idle again: time per wake (steerable
 *   rebuilds its engine; the peer's `prompt` and the floor run on their idle agents).
 *
 * Each measure of each subject runs in its own child process; medians of RUNS children.
 * `node --expose-gc --import tsx bench/sessions.ts` (or `npm run bench`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 100_000)
const WAKE = Number(process.env.BENCH_WAKE ?? 10_000)
const RUNS = Number(process.env.BENCH_RUNS ?? 3)

/** One short turn as the agent writes it: the log every session of the directory starts from. */
const oneTurnLog = (): string =>
  [
    { seq: 1, type: 'turn/start', data: { turn: 1, trigger: { kind: 'message', source: { kind: 'user' } } } },
    {
      seq: 2,
      type: 'user/message',
      data: { content: [{ type: 'text', text: 'a short question' }], source: { kind: 'user' } },
    },
    { seq: 3, type: 'step/start', data: { turn: 1, step: 1 } },
    {
      seq: 4,
      type: 'assistant/message',
      data: { turn: 1, step: 1, content: [{ type: 'text', text: 'ok' }] },
    },
    { seq: 5, type: 'step/end', data: { turn: 1, step: 1 } },
    { seq: 6, type: 'turn/end', data: { turn: 1, reason: { kind: 'completed' } } },
  ]
    .map((e) => `${JSON.stringify(e)}\n`)
    .join('')

type Measure = 'files' | 'wake'
type Result = { readonly perAgent: number; readonly rss?: number }

const openOverFiles = async (): Promise<Result> => {
  const { steerable } = await import('./lib/built.js')
  const dir = mkdtempSync(join(tmpdir(), 'steerable-sessions-'))
  try {
    const log = oneTurnLog()
    for (let i = 0; i < SESSIONS; i++) writeFileSync(join(dir, `s${i}.jsonl`), log)
    const model = () => []
    const kept: unknown[] = new Array(SESSIONS)
    collect()
    const heap0 = process.memoryUsage().heapUsed
    for (let i = 0; i < SESSIONS; i++) {
      const store = steerable.fileStore(join(dir, `s${i}.jsonl`))
      kept[i] = steerable.createAgent({ model, store })
    }
    collect()
    const heap1 = process.memoryUsage().heapUsed
    if (kept.length !== SESSIONS) throw new Error('unreachable: keeps the agents alive until here')
    return { perAgent: (heap1 - heap0) / SESSIONS, rss: process.memoryUsage().rss }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const wake = async (subject: SubjectId): Promise<Result> => {
  const { minimal } = await import('./lib/minimal.js')
  const m = await minimal(subject)
  const agents: unknown[] = []
  for (let i = 0; i < WAKE; i++) {
    const agent = m.make()
    await m.turn(agent, 'a short question')
    agents.push(agent)
  }
  collect()
  const t0 = performance.now()
  for (const agent of agents) await m.turn(agent, 'and one more')
  return { perAgent: ((performance.now() - t0) * 1000) / WAKE }
}

const args = childArgs()
if (args) {
  const [subject, measure] = args as [SubjectId, Measure]
  childDone(measure === 'files' ? await openOverFiles() : await wake(subject))
}

const present: SubjectId[] = ensurePeers() ? ['steerable', 'pi', 'floor'] : ['steerable', 'floor']
const script = fileURLToPath(import.meta.url)
const samples = new Map<string, number[]>()
for (let run = 1; run <= RUNS; run++) {
  const r = inChild<Result>(script, ['steerable', 'files'], 1_800_000)
  if (r) {
    appendTo(samples, 'files/heap', r.perAgent)
    appendTo(samples, 'files/rss', r.rss ?? 0)
  }
  for (const s of rotated(present, run)) {
    const w = inChild<Result>(script, [s, 'wake'])
    if (w) appendTo(samples, `wake/${s}`, w.perAgent)
  }
  progress(`sessions: run ${run}/${RUNS}`)
}

const one = (key: string, f = (x: number) => x) => {
  const xs = samples.get(key) ?? []
  return xs.length > 0 ? { steerable: { value: f(median(xs)) } } : {}
}
const section = 'many sessions: idle agents over one file-store directory, and waking released agents'
const count = SESSIONS.toLocaleString('en-US')
const rows: Row[] = [
  {
    section,
    measure: `heap per open idle agent over a file store (${count} sessions of one turn, after GC)`,
    unit: 'KiB',
    runs: String(samples.get('files/heap')?.length ?? 0),
    cells: one('files/heap', (b) => b / 1024),
    noRatios: true,
  },
  {
    section,
    measure: `RSS of the process with ${count} such agents open`,
    unit: 'MiB',
    runs: String(samples.get('files/rss')?.length ?? 0),
    cells: one('files/rss', (b) => b / 2 ** 20),
    noRatios: true,
  },
  {
    section,
    measure: `wake a released idle agent: one followup until idle again (${WAKE.toLocaleString('en-US')} agents)`,
    unit: 'µs',
    runs: present.map((s) => samples.get(`wake/${s}`)?.length ?? 0).join('/'),
    cells: Object.fromEntries(
      present.flatMap((s) => {
        const xs = samples.get(`wake/${s}`) ?? []
        return xs.length > 0 ? [[s, { value: median(xs) }] as const] : []
      }),
    ),
  },
]
collect()
report('sessions', rows)
