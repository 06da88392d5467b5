/**
 * R57 failover, R52 across processes: two worker processes serve eight sessions while this
 * process sends followups, steers and injects into them; workers are SIGKILLed mid-turn and new
 * ones started. At the end every id a client got back is delivered exactly once (in the
 * transcript of its session) or settled in the journal; the sends of one client into one session
 * keep their order; along each session's `seq` the writers' epochs never go down (no two owners
 * appended at once); and every session opens again.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { AgentMessageId, SessionEvent } from '../../../src/index.js'
import { connectSessions, migrate, openPostgresSession } from '../../../src/postgres.js'
import { bundleChild, type ChildProgram } from '../../support/bundleChild.js'
import type { Child } from '../../support/childProcesses.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
let program: ChildProgram
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
  program = await bundleChild('workerChild', { deadlineMs: 120_000 })
}, 60_000)
afterAll(async () => {
  program.remove()
  await db.drop()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

it('R57, R52, R54: SIGKILLed workers lose nothing; every id is delivered once or settled', async () => {
  const sessions = Array.from({ length: 8 }, (_, i) => `fleet-${i}`)
  const startWorker = async (): Promise<Child> => {
    const child = program.start({ env: { DATABASE_URL: db.url, CONCURRENCY: '8' } })
    await child.line(/^ready$/)
    return child
  }
  let workers = [await startWorker(), await startWorker()]
  const client = connectSessions(db.pool, { pollMs: 100 })
  try {
    const sent = new Map<string, AgentMessageId[]>(sessions.map((s) => [s, []]))
    const followups = new Set<AgentMessageId>()
    let kills = 0
    for (let round = 0; round < 6; round++) {
      await Promise.all(
        sessions.map(async (name, i) => {
          const s = client.session(name)
          const kind = (round + i) % 3
          const id = await (kind === 0
            ? s.followup(`r${round}`)
            : kind === 1
              ? s.steer(`r${round}`)
              : s.inject(`r${round}`))
          sent.get(name)?.push(id)
          if (kind === 0) followups.add(id)
        }),
      )
      await sleep(150)
      if (round % 2 === 1) {
        // Kill whichever worker drives something right now, mid-turn if it can be helped.
        const victim = workers.find((w) => w.lines.some((l) => l.startsWith('drive '))) ?? workers[0]
        victim?.signal('SIGKILL')
        await victim?.exit
        kills++
        workers = [...workers.filter((w) => w !== victim), await startWorker()]
      }
    }
    // Everything settles: each id delivered or settled.
    for (const [name, ids] of sent) {
      const s = client.session(name)
      const outcomes = await Promise.all(ids.map((id) => s.outcome(id)))
      for (const outcome of outcomes)
        expect(['delivered', 'discarded', 'refused', 'blocked']).toContain(outcome.kind)
    }
    expect(kills).toBe(3)
    for (const worker of workers) expect(worker.lines.filter((l) => l.startsWith('error '))).toStrictEqual([])
    for (const [name, ids] of sent) {
      const { rows } = await db.pool.query(
        'SELECT seq, epoch, event FROM steerable_events WHERE session_id = $1 ORDER BY seq',
        [name],
      )
      const epochs = rows.map((r) => Number(r.epoch))
      expect(epochs, `${name}: epochs along seq`).toStrictEqual(epochs.slice().sort((a, b) => a - b))
      const carried = rows.flatMap((r) => {
        const e = r.event as SessionEvent
        return (e.type === 'user/message' || e.type === 'steering/message') && e.data.id ? [e.data.id] : []
      })
      expect(new Set(carried).size, `${name}: an id twice in the transcript`).toBe(carried.length)
      // This client's followups run in the order it sent them (R55), whatever the kills did. (A
      // steer may land in a running turn and an inject at once, ahead of waiting followups.)
      const prompts = ids.filter((id) => followups.has(id) && carried.includes(id))
      expect(
        carried.filter((id) => prompts.includes(id)),
        `${name}: order`,
      ).toStrictEqual(prompts)
      const store = await openPostgresSession(db.pool, name)
      expect(store.load().length).toBe(rows.length)
    }
  } finally {
    await client.close()
  }
}, 120_000)
