/**
 * R75 crash test: "a crash during a compaction leaves either no `compaction` event or a complete
 * one". A child process (test/support/children/crashCompactionChild.ts) opens a copy of a session
 * that holds five turns, calls `compact()` with a summariser that streams its pieces one at a time
 * (each released by this test), and keeps sending followups, steers and injects, flushing now and
 * then. It is SIGKILLed at moments chosen from what it reports, never by a clock:
 *
 * - `in-summary`: at the summariser's piece j, before the summary is complete;
 * - `after-summary`: at the r-th report after the summariser completed, which lands around the
 *   append of the `compaction` event, its flush and the turns after it;
 * - `torn`: the child kills itself while the kernel writes the flush that holds a 3 MB
 *   `compaction` line, so the line may be torn on disk;
 * - `after-durable`: at the r-th report after a flush that followed the compaction resolved.
 *
 * After each kill the log opens (at most a torn last line cut off), and `session.messages()` of a
 * reopened agent is exactly the five turns' messages with no `compaction` event in the log, or
 * exactly the whole summary and the kept tail (then what the later turns added) with the complete
 * event: never a partial summary, never old messages beside the summary. Every id whose flush the
 * child reported is delivered once, waiting in the inbox, or settled in the journal (R52).
 *
 * The child is bundled once with esbuild and run with plain `node` (tsx per spawn costs seconds).
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type AgentMessageId,
  createAgent,
  fileStore,
  type Message,
  type ModelEvent,
  projectMessages,
  type SessionEvent,
} from '../../src/index.js'
import { deliveredIds, replayJournal } from '../../src/session/replayJournal.js'
import { bundleChild, type ChildProgram } from '../support/bundleChild.js'
import { SUMMARY_PIECES, summaryText } from '../support/compactionSummary.js'
import { mulberry32 } from '../support/mulberry32.js'

type Plan =
  | { readonly kind: 'in-summary'; readonly piece: number }
  | { readonly kind: 'after-summary'; readonly reports: number }
  | { readonly kind: 'torn' }
  | { readonly kind: 'after-durable'; readonly reports: number }

type Run = { durable: string[]; errors: string[]; signal: NodeJS.Signals | null; timedOut: boolean }

const TURNS = 5
const root = mkdtempSync(join(tmpdir(), 'steerable-crash-compaction-'))
const prepared = join(root, 'prepared.jsonl')
let program: ChildProgram
let before: readonly SessionEvent[] = []

const answer = (text: string): ModelEvent[] => [
  { type: 'text', text },
  { type: 'finish', reason: 'stop' },
]

beforeAll(async () => {
  // A wedged child is killed at its deadline, and its run says so.
  program = await bundleChild('crashCompactionChild', { deadlineMs: 90_000 })
  let n = 0
  const agent = createAgent({ model: () => answer(`answer ${++n}`), store: fileStore(prepared) })
  for (let t = 1; t <= TURNS; t++) agent.followup(`question ${t}`)
  await agent.whenIdle()
  await agent.dispose()
  before = agent.session.events
}, 120_000)
afterAll(() => {
  program.remove()
  rmSync(root, { recursive: true, force: true })
})

/**
 * Runs the child on `log` and kills it as `plan` says. Each summary piece is released once a
 * `durable` line came after it, so sends are accepted and flushed while the compaction runs.
 */
const runChild = async (log: string, seed: number, keep: number, plan: Plan): Promise<Run> => {
  const big = plan.kind === 'torn'
  const child = program.start({ args: [log, String(seed), String(keep), big ? '1' : '0'] })
  const run: Run = { durable: [], errors: [], signal: null, timedOut: false }
  let held = false // a piece waits for its `go`
  let countFrom: 'summarised' | 'compaction-durable' | undefined
  let counted = -1
  const kill = () => void child.kill()
  if (plan.kind === 'after-summary') countFrom = 'summarised'
  if (plan.kind === 'after-durable') countFrom = 'compaction-durable'
  const release = () => {
    held = false
    child.write('go\n')
  }
  child.onLine((line, stream) => {
    if (stream !== 'stdout') return
    const [word = '', ...rest] = line.split(' ')
    if (word === 'durable') run.durable.push(...rest.filter(Boolean))
    if (word === 'error') run.errors.push(rest.join(' '))
    if (word === 'piece') {
      if (plan.kind === 'in-summary' && Number(rest[0]) === plan.piece) kill()
      else held = true
    } else if (word === 'durable' && held) release()
    if (counted >= 0) counted++
    if (word === countFrom && counted < 0) counted = 0
    if (plan.kind !== 'in-summary' && plan.kind !== 'torn' && counted === plan.reports) kill()
  })
  const { signal, stderr, timedOut } = await child.exit
  if (signal !== 'SIGKILL') run.errors.push(`exited ${String(signal)}: ${stderr}`)
  return { ...run, signal, timedOut }
}

/** The reopened session: the log as the store loads it, the inbox as the journal rebuilds it. */
const reopen = async (log: string) => {
  const store = fileStore(log)
  const warnings = store.warnings.length
  const events = store.load()
  const lines = readFileSync(log, 'utf8')
    .split('\n')
    .filter((l) => l !== '').length
  const replay = replayJournal(store.inbox.load(), deliveredIds(events))
  store.close?.()
  const waiting = new Set([...replay.queue, ...replay.outbox].map((i) => i.message.id as string))
  // What a resumed agent reads at once: opening may append restored context and close a turn the
  // kill cut off (R51), but the restored followups wake it only after createAgent returns.
  const agent = createAgent({ model: () => answer('resumed'), store: fileStore(log) })
  const opened = agent.session.events
  const messages = agent.session.messages()
  await agent.dispose()
  return { warnings, events, opened, lines, waiting, settled: replay.settled, messages }
}

const summaryMessage = (big: boolean): Message => ({
  role: 'user',
  content: [{ type: 'text', text: summaryText(big) }],
})

/** The first seq of the last `keep` turns' tail: right after the end of the turn before them. */
const keptFromSeq = (keep: number): number => {
  const ends = before.filter((e) => e.type === 'turn/end').map((e) => e.seq)
  return (ends[ends.length - keep - 1] as number) + 1
}

const planFor = (k: number, random: () => number): Plan => {
  switch (k % 4) {
    case 0:
      return { kind: 'in-summary', piece: Math.floor(random() * SUMMARY_PIECES) }
    case 1:
      return { kind: 'after-summary', reports: Math.floor(random() * 8) }
    case 2:
      return { kind: 'torn' }
    default:
      return { kind: 'after-durable', reports: Math.floor(random() * 4) }
  }
}

describe('R75: a crash during a compaction leaves no compaction event or a complete one', () => {
  it('R75, R52: 28 SIGKILLs in and around compact(); the messages are the old ones or summary + tail, and no flushed send is lost', async () => {
    const KILLS = 28
    const LANES = 2
    const oldMessages = projectMessages(before)
    const totals = { kills: 0, before: 0, inSummary: 0, torn: 0, after: 0, durable: 0 }
    await Promise.all(
      Array.from({ length: LANES }, async (_, lane) => {
        const random = mulberry32(0xc0de + lane)
        for (let k = lane; k < KILLS; k += LANES) {
          const plan = planFor(k, random)
          const keep = 1 + (k % 2)
          const log = join(root, `session-${k}.jsonl`)
          copyFileSync(prepared, log)
          if (existsSync(`${prepared}.inbox`)) copyFileSync(`${prepared}.inbox`, `${log}.inbox`)
          const where = `kill ${k} (${JSON.stringify(plan)}, keep ${keep})`

          const run = await runChild(log, 1 + Math.floor(random() * 1e9), keep, plan)
          expect(run.timedOut, `${where}: the kill plan never fired (child wedged?)`).toBe(false)
          expect(run.errors, where).toStrictEqual([])
          totals.kills++

          // The log parses: at most a torn last line was cut off, and the repair is on disk.
          const after = await reopen(log)
          expect(after.warnings, where).toBeLessThanOrEqual(1)
          expect(after.lines, where).toBe(after.events.length)
          expect(
            after.events.map((e) => e.seq),
            `${where}: seqs`,
          ).toStrictEqual(after.events.map((_, i) => i + 1))
          expect(after.events.slice(0, before.length), where).toStrictEqual(before)
          expect(after.opened.slice(0, after.events.length), where).toStrictEqual(after.events)

          const compactions = after.events.filter((e) => e.type === 'compaction')
          if (compactions.length === 0) {
            // Nothing reaches the log while the summariser runs: the session is as it was.
            totals.before++
            if (plan.kind === 'in-summary') totals.inSummary++
            if (after.warnings > 0) totals.torn++
            expect(after.events.length, where).toBe(before.length)
            const opening = projectMessages(after.opened.slice(before.length))
            expect(after.messages, where).toStrictEqual([...oldMessages, ...opening])
          } else {
            totals.after++
            expect(plan.kind, `${where}: a compaction event from an unfinished summary`).not.toBe(
              'in-summary',
            )
            expect(compactions, where).toHaveLength(1)
            expect(after.events[before.length], where).toStrictEqual({
              seq: before.length + 1,
              type: 'compaction',
              data: {
                upToSeq: before.length,
                keptFromSeq: keptFromSeq(keep),
                summary: summaryMessage(plan.kind === 'torn').content,
              },
            })
            const tail = projectMessages(before.filter((e) => e.seq >= keptFromSeq(keep)))
            const later = projectMessages(after.opened.slice(before.length + 1))
            expect(after.messages, where).toStrictEqual([
              summaryMessage(plan.kind === 'torn'),
              ...tail,
              ...later,
            ])
          }
          if (plan.kind === 'after-durable')
            expect(compactions, `${where}: lost a durable compaction`).toHaveLength(1)

          // R52: every id whose flush resolved is delivered once, waiting, or settled.
          const counts = new Map<string, number>()
          for (const e of after.events)
            if ((e.type === 'user/message' || e.type === 'steering/message') && e.data.id !== undefined)
              counts.set(e.data.id, (counts.get(e.data.id) ?? 0) + 1)
          for (const [id, count] of counts) expect(count, `${where}: ${id} in the transcript`).toBe(1)
          for (const id of run.durable) {
            const delivered = counts.has(id)
            const places = [
              delivered,
              after.waiting.has(id),
              !delivered && after.settled.has(id as AgentMessageId),
            ]
            expect(places.filter(Boolean), `${where}: flushed id ${id}`).toHaveLength(1)
          }
          totals.durable += run.durable.length
        }
      }),
    )
    console.info(
      `R75 crash test: ${totals.kills} kills, ${totals.before} before the compaction event was durable ` +
        `(${totals.inSummary} inside the summariser, ${totals.torn} with a torn line cut off), ` +
        `${totals.after} after it; ${totals.durable} flushed sends checked`,
    )
    expect(totals.kills).toBe(KILLS)
    // The kills landed on both sides of the append: the test can tell a partial compaction apart.
    expect(totals.before).toBeGreaterThan(0)
    expect(totals.after).toBeGreaterThan(0)
    expect(totals.durable).toBeGreaterThan(0)
  }, 300_000)
})
