/**
 * R52 crash test: a child process (test/support/children/crashInboxChild.ts) drives an agent on a `fileStore`
 * with random sends (followups, steers, injects, parked sends), edits (remove, replace, move,
 * promote) and cancels, and reports the ids whose `session.flush()` resolved. It is SIGKILLed at
 * random moments, 33 times over three files. After each kill the session is opened again: every
 * reported id is in the transcript exactly once, or waiting in the inbox, or settled in the
 * journal; no id is in the transcript twice; the next child's resumed inbox is what the journal
 * says; the queue keeps acceptance order but for what was moved or promoted; and the books
 * balance from the reopened state (R30), which the child checks itself.
 *
 * The child is bundled once with esbuild and run with plain `node` (tsx per spawn costs seconds).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AgentMessageId, fileStore } from '../../src/index.js'
import { deliveredIds, replayJournal } from '../../src/session/replayJournal.js'
import { bundleChild, type ChildProgram } from '../support/bundleChild.js'

const root = mkdtempSync(join(tmpdir(), 'steerable-crash-inbox-'))
let program: ChildProgram
beforeAll(async () => {
  // A child that wedges is killed at its deadline: its run then has no kill plan's signal to show.
  program = await bundleChild('crashInboxChild', { deadlineMs: 90_000 })
}, 120_000)
afterAll(() => {
  program.remove()
  rmSync(root, { recursive: true, force: true })
})

type Run = {
  restored: string[]
  durable: string[]
  moved: string[]
  errors: string[]
  signal: NodeJS.Signals | null
}

/**
 * Runs the child on `log` and SIGKILLs it once `killAfterMs` passed since its `ready` line and it
 * reported `flushes` resolved flushes, whichever comes last: the time spreads the kills over the
 * child's work on a quiet machine, the count makes every run do some on a loaded one.
 */
const runChild = async (log: string, seed: number, killAfterMs: number, flushes: number): Promise<Run> => {
  const child = program.start({ args: [log, String(seed)], stdin: 'ignore' })
  const run: Run = { restored: [], durable: [], moved: [], errors: [], signal: null }
  let timeUp = false
  let flushed = 0
  const killWhenDue = () => {
    if (timeUp && flushed >= flushes) void child.kill()
  }
  child.onLine((line, stream) => {
    if (stream !== 'stdout') return
    const [word = '', ...rest] = line.split(' ')
    if (word === 'ready')
      setTimeout(() => {
        timeUp = true
        killWhenDue()
      }, killAfterMs)
    else if (word === 'restored') run.restored = rest.filter(Boolean)
    else if (word === 'durable') {
      run.durable.push(...rest.filter(Boolean))
      flushed++
      killWhenDue()
    } else if (word === 'moved') run.moved.push(...rest.filter(Boolean))
    else if (word === 'error') run.errors.push(rest.join(' '))
  })
  const { signal, stderr } = await child.exit
  if (signal !== 'SIGKILL') run.errors.push(`exited ${String(signal)}: ${stderr}`)
  return { ...run, signal }
}

/** What the session holds after a kill, read the way a resumed agent reads it. */
const reopen = (log: string) => {
  const store = fileStore(log)
  try {
    const events = store.load()
    const counts = new Map<string, number>()
    for (const e of events)
      if ((e.type === 'user/message' || e.type === 'steering/message') && e.data.id !== undefined)
        counts.set(e.data.id, (counts.get(e.data.id) ?? 0) + 1)
    const replay = replayJournal(store.inbox.load(), deliveredIds(events))
    const steering = replay.outbox.some((i) => i.placement === 'steering' && i.turn === undefined)
    const resumed = [...replay.queue, ...(steering ? replay.outbox.filter((i) => i.turn === undefined) : [])]
    const waiting = new Set([...replay.queue, ...replay.outbox].map((i) => i.message.id as string))
    return {
      counts,
      waiting,
      settled: replay.settled,
      queue: replay.queue.map((i) => i.message.id as string),
      resumed: resumed.map((i) => i.message.id as string),
    }
  } finally {
    store.close?.()
  }
}

describe('R52: SIGKILL never loses a send whose flush resolved', () => {
  it('R52, R51, R30: 33 kills over three files; every flushed id is delivered once, waiting, or settled', async () => {
    const files = 3
    const kills = 11
    const totals = { kills: 0, durable: 0, delivered: 0, waiting: 0, settled: 0 }
    await Promise.all(
      Array.from({ length: files }, async (_, f) => {
        const log = join(root, `session-${f}.jsonl`)
        const durable = new Set<string>()
        const moved = new Set<string>()
        let expectedRestore: string[] = []
        for (let k = 0; k < kills; k++) {
          const run = await runChild(log, 1000 * f + k + 1, 30 + ((k * 37 + f * 11) % 170), 1 + ((k + f) % 3))
          expect(run.errors, `file ${f} run ${k}`).toStrictEqual([])
          expect(run.restored, `file ${f} run ${k}: the resumed inbox`).toStrictEqual(expectedRestore)
          totals.kills++
          for (const id of run.durable) durable.add(id)
          for (const id of run.moved) moved.add(id)
          const after = reopen(log)
          // Ids sort in acceptance order (R3): what no move or promote touched keeps it.
          const kept = after.queue.filter((id) => !moved.has(id))
          expect(kept, `file ${f} run ${k}: the queue's order`).toStrictEqual(kept.slice().sort())
          for (const [id, count] of after.counts) expect(count, `${id} in the transcript`).toBe(1)
          for (const id of durable) {
            const delivered = after.counts.has(id)
            const places = [
              delivered,
              after.waiting.has(id),
              !delivered && after.settled.has(id as AgentMessageId),
            ]
            expect(places.filter(Boolean), `flushed id ${id} (file ${f}, run ${k})`).toHaveLength(1)
          }
          expectedRestore = after.resumed
        }
        totals.durable += durable.size
        const end = reopen(log)
        for (const id of durable) {
          if (end.counts.has(id)) totals.delivered++
          else if (end.waiting.has(id)) totals.waiting++
          else totals.settled++
        }
      }),
    )
    expect(totals.kills).toBe(files * kills)
    // The runs did work: ids were flushed, and some of each fate were seen.
    expect(totals.delivered).toBeGreaterThan(0)
    expect(totals.settled).toBeGreaterThan(0)
    console.info('R52 crash test:', totals)
  }, 240_000)
})
