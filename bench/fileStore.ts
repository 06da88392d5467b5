/**
 * File-store benchmark (R35, R36): append throughput and checkpoint latency of `fileStore`.
 * Run with `npx tsx bench/fileStore.ts` (or `npm run bench`). Prints a table; asserts nothing.
 *
 * - append throughput: 100k events appended one at a time (as the transcript hands them over),
 *   then one flush (write + fsync);
 * - checkpoint latency: 1,000 small turns (6 events each), one flush after each, as the agent's
 *   checkpoint does; median / p95 / max;
 * - agent turns: 200 one-step turns through `createAgent` on a file store vs the memory store;
 * - resume with 10,000 waiting items (R50, R51): `fileStore(path)` on a 10,000-item inbox journal
 *   (read, validated; then also one that is compacted on open), then `replayJournal`, which the
 *   agent uses to rebuild its inbox. `replayJournal` is not public: it is imported from `src/`
 *   (pure, a few closures per call, so tsx's `keepNames` costs it nothing measurable);
 * - what the journal costs a send: 100k `followup()`s while a turn runs, on the memory store
 *   (no journal) and on a file store (every send journaled, buffered), then one flush.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { firstValueFrom, from, NEVER } from 'rxjs'
import type { SessionEvent, SessionStore } from '../src/index.js'
import { deliveredIds, replayJournal } from '../src/session/replayJournal.js'
import { steerable, steerableTesting } from './lib/built.js'

const { createAgent, fileStore, memoryStore } = steerable
const { scriptedModel } = steerableTesting

const dir = mkdtempSync(join(tmpdir(), 'steerable-bench-'))
const flush = (store: SessionStore) => firstValueFrom(from(store.flush()), { defaultValue: undefined })

const turnEvents = (turn: number, seq: number, answer: string): SessionEvent[] => [
  { seq, type: 'turn/start', data: { turn, trigger: { kind: 'message', source: { kind: 'user' } } } },
  {
    seq: seq + 1,
    type: 'user/message',
    data: { content: [{ type: 'text', text: `question ${turn}` }], source: { kind: 'user' } },
  },
  { seq: seq + 2, type: 'step/start', data: { turn, step: 1 } },
  {
    seq: seq + 3,
    type: 'assistant/message',
    data: {
      turn,
      step: 1,
      content: [{ type: 'text', text: answer }],
      usage: { inputTokens: 12, outputTokens: 34 },
    },
  },
  { seq: seq + 4, type: 'step/end', data: { turn, step: 1 } },
  { seq: seq + 5, type: 'turn/end', data: { turn, reason: { kind: 'completed' } } },
]

const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN
const ms = (n: number) => `${n.toFixed(3)} ms`
const rate = (count: number, millis: number) =>
  `${Math.round((count / millis) * 1000).toLocaleString('en-US')}/s`

const rows: [string, string][] = []

// 1. Append throughput.
{
  const path = join(dir, 'append.jsonl')
  const store = fileStore(path)
  const N = 100_000
  const events: SessionEvent[] = []
  for (let turn = 1; events.length < N; turn++)
    events.push(...turnEvents(turn, events.length + 1, `answer number ${turn}, a short line of text.`))
  events.length = N
  const t0 = performance.now()
  for (const event of events) store.append([event])
  const t1 = performance.now()
  await flush(store)
  const t2 = performance.now()
  store.close?.()
  const bytes = statSync(path).size
  rows.push(['append 100k events (buffer)', `${ms(t1 - t0)}  (${rate(N, t1 - t0)})`])
  rows.push(['one flush of 100k events', `${ms(t2 - t1)}  (${(bytes / 1024 / 1024).toFixed(1)} MiB)`])
  rows.push(['append + flush throughput', rate(N, t2 - t0)])
  // Re-opening validates every line (R37).
  const r0 = performance.now()
  const reopened = fileStore(path)
  const r1 = performance.now()
  rows.push(['open + validate 100k-event log', `${ms(r1 - r0)}  (${rate(reopened.load().length, r1 - r0)})`])
  reopened.close?.()
}

// 2. Checkpoint latency.
{
  const path = join(dir, 'checkpoints.jsonl')
  const store = fileStore(path)
  const TURNS = 1_000
  const latencies: number[] = []
  let seq = 1
  for (let turn = 1; turn <= TURNS; turn++) {
    const events = turnEvents(turn, seq, `answer ${turn}`)
    seq += events.length
    for (const event of events) store.append([event])
    const t0 = performance.now()
    await flush(store)
    latencies.push(performance.now() - t0)
  }
  store.close?.()
  const sorted = latencies.slice().sort((a, b) => a - b)
  rows.push([
    'checkpoint after a small turn (1,000)',
    `median ${ms(quantile(sorted, 0.5))}, p95 ${ms(quantile(sorted, 0.95))}, max ${ms(sorted.at(-1) ?? 0)}`,
  ])
}

// 3. Whole agent turns, file store vs memory store.
const agentTurns = async (store: SessionStore, turns: number): Promise<number> => {
  const agent = createAgent({
    model: scriptedModel(Array.from({ length: turns }, (_, i) => `answer ${i}`)),
    store,
  })
  const t0 = performance.now()
  for (let i = 0; i < turns; i++) agent.followup(`question ${i}`)
  await agent.whenIdle()
  const elapsed = performance.now() - t0
  await agent.dispose()
  return elapsed
}
{
  const TURNS = 200
  const onFile = await agentTurns(fileStore(join(dir, 'agent.jsonl')), TURNS)
  const inMemory = await agentTurns(memoryStore(), TURNS)
  rows.push([`agent turns, fileStore (${TURNS})`, `${ms(onFile / TURNS)} per turn  (${rate(TURNS, onFile)})`])
  rows.push([
    `agent turns, memoryStore (${TURNS})`,
    `${ms(inMemory / TURNS)} per turn  (${rate(TURNS, inMemory)})`,
  ])
}

// 4. Resume with 10,000 waiting items.
{
  const ITEMS = 10_000
  const RUNS = 5
  const add = (i: number) =>
    JSON.stringify({
      op: 'add',
      message: {
        id: `01JBENCH${String(i).padStart(18, '0')}`,
        content: [{ type: 'text', text: `waiting message number ${i}, a short line of text` }],
        source: { kind: 'user' },
      },
      placement: i % 10 === 9 ? 'parked' : 'queued',
    })
  const waiting = Array.from({ length: ITEMS }, (_, i) => `${add(i)}\n`).join('')
  const settled = Array.from(
    { length: ITEMS },
    (_, i) =>
      `${add(ITEMS + i)}\n{"op":"settle","id":"01JBENCH${String(ITEMS + i).padStart(18, '0')}",` +
      '"outcome":{"kind":"discarded","reason":"removed"}}\n',
  ).join('')
  const resume = (journal: string) => {
    const path = join(dir, 'resume.jsonl')
    const open: number[] = []
    const replay: number[] = []
    for (let run = 0; run < RUNS; run++) {
      writeFileSync(`${path}.inbox`, journal)
      const t0 = performance.now()
      const store = fileStore(path)
      const t1 = performance.now()
      const { queue } = replayJournal(store.inbox.load(), deliveredIds(store.load()))
      const t2 = performance.now()
      store.close?.()
      if (queue.length !== ITEMS) throw new Error(`resumed ${queue.length} items, not ${ITEMS}`)
      open.push(t1 - t0)
      replay.push(t2 - t1)
    }
    const median = (xs: number[]) =>
      quantile(
        xs.slice().sort((a, b) => a - b),
        0.5,
      )
    return { open: median(open), replay: median(replay), total: median(open.map((t, i) => t + replay[i]!)) }
  }
  const plain = resume(waiting)
  rows.push([
    'resume, 10,000 waiting items: fileStore(path)',
    `${ms(plain.open)}  (${(Buffer.byteLength(waiting) / 1024 / 1024).toFixed(1)} MiB journal)`,
  ])
  rows.push(['resume, 10,000 waiting items: replayJournal', ms(plain.replay)])
  rows.push(['resume, 10,000 waiting items: open + replay', `${ms(plain.total)}  (median of ${RUNS})`])
  const compacted = resume(waiting + settled)
  rows.push([
    'resume, 10,000 waiting + 10,000 settled (compacted on open)',
    `${ms(compacted.total)}  (open ${ms(compacted.open)}, replay ${ms(compacted.replay)})`,
  ])
}

// 5. What the journal costs a send (R50: it must not make a send wait for the disk).
{
  const N = 100_000
  const heldSends = async (store: SessionStore) => {
    const agent = createAgent({ model: () => NEVER, store })
    agent.followup('hold the turn')
    await new Promise((resolve) => setTimeout(resolve, 0))
    const t0 = performance.now()
    for (let i = 0; i < N; i++) agent.followup(`queued message ${i}`)
    const t1 = performance.now()
    await agent.session.flush()
    const t2 = performance.now()
    await agent.dispose()
    return { send: ((t1 - t0) / N) * 1000, flush: t2 - t1 }
  }
  const runs = [0, 1, 2]
  const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[1] ?? Number.NaN
  const memory: number[] = []
  const file: number[] = []
  const flushes: number[] = []
  // Alternating which goes first, so warm-up favours neither.
  for (const run of runs) {
    if (run % 2 === 0) memory.push((await heldSends(memoryStore())).send)
    const onFile = await heldSends(fileStore(join(dir, `sends-${run}.jsonl`)))
    file.push(onFile.send)
    flushes.push(onFile.flush)
    if (run % 2 === 1) memory.push((await heldSends(memoryStore())).send)
  }
  const us = (n: number) => `${n.toFixed(2)} µs`
  rows.push([`followup() while a turn runs, memoryStore (${N / 1000}k)`, `${us(median(memory))} per send`])
  rows.push([
    `followup() while a turn runs, fileStore + journal (${N / 1000}k)`,
    `${us(median(file))} per send  (${(median(file) / median(memory)).toFixed(2)}x the memory store)`,
  ])
  rows.push([`flush of ${N / 1000}k journaled sends`, ms(median(flushes))])
}

rmSync(dir, { recursive: true, force: true })

const width = Math.max(...rows.map(([name]) => name.length))
console.log(`fileStore benchmark (node ${process.version}, ${process.platform})`)
console.log(`${'measure'.padEnd(width)} | result`)
console.log(`${'-'.repeat(width)}-|-${'-'.repeat(50)}`)
for (const [name, value] of rows) console.log(`${name.padEnd(width)} | ${value}`)
