/**
 * Hostile probes of races between remote edits and owners (R57, R58): a no-owner cancel racing a
 * worker taking the session, a promote while the owner releases.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { AgentMessageId } from '../../../src/index.js'
import { connectSessions, createWorker, migrate, openPostgresSession } from '../../../src/postgres.js'
import { type ScriptedReply, scriptedModel } from '../../../src/testing.js'
import { gate } from '../../support/agents.js'
import { committedEvents, ownSession, storedInbox, until } from '../../support/postgresOwner.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(() => db.drop())

const owner = (sessionId: string, script: readonly ScriptedReply[]) => ownSession(db.pool, sessionId, script)

const events = (sessionId: string) => committedEvents(db.pool, sessionId)

it('R58, R57: a no-owner cancel racing a worker that takes the session: every id settles once, nothing waits after', async () => {
  for (const round of [1, 2, 3, 4]) {
    const sessionId = `cancel-vs-worker-${round}`
    const { client, remote, steer, queued } = await storedInbox(db.pool, sessionId)
    const worker = createWorker({
      pool: db.pool,
      agent: () => ({ model: scriptedModel(['w1', 'w2', 'w3']) }),
      pollMs: 50,
      idleMs: 100,
    })
    try {
      // Staggered a little differently each round, so each side wins some.
      await new Promise((resolve) => setTimeout(resolve, round * 5))
      await remote.cancel()
      const outcomes = await Promise.all([remote.outcome(queued), remote.outcome(steer)])
      for (const o of outcomes) expect(['discarded', 'delivered']).toContain(o.kind)
      await until(
        async () => (await openPostgresSession(db.pool, sessionId)).remoteRequests.length === 0,
        'no request left',
      )
      await until(() => worker.sessions.size === 0, 'the worker to let go')
      const delivered = (await events(sessionId)).flatMap((e) =>
        e.type === 'user/message' || e.type === 'steering/message'
          ? [(e.data as { id: AgentMessageId }).id]
          : [],
      )
      expect(new Set(delivered).size, `round ${round}`).toBe(delivered.length)
    } finally {
      await worker.close()
      await client.close()
    }
  }
}, 120_000)

it('R46, R57: a remote promote that reaches an owner while it releases is not lost: the next owner applies it', async () => {
  const client = connectSessions(db.pool, { pollMs: 100 })
  const remote = client.session('promote-releasing')
  const g = gate()
  const first = await owner('promote-releasing', [g.reply])
  await remote.followup('first')
  await until(() => first.agent.status === 'running', 'the turn')
  const queued = await remote.followup('queued')
  await until(() => first.agent.inbox.queue.length === 1, 'the queue')
  const releasing = first.release()
  const promoted = remote.promote(queued)
  await releasing
  await promoted
  const next = await openPostgresSession(db.pool, 'promote-releasing')
  const promotes = next.remoteRequests.filter((r) => r.record.op === 'remote-promote')
  const applied = (
    await db.pool.query(`SELECT remote_applied FROM steerable_sessions WHERE id = 'promote-releasing'`)
  ).rows[0].remote_applied
  // Either the releasing owner applied it (and wrote that), or it waits for the next owner.
  const seq = (
    await db.pool.query(
      `SELECT seq FROM steerable_inbox WHERE session_id = 'promote-releasing' AND op = 'remote-promote'`,
    )
  ).rows[0].seq
  expect(promotes.length === 1 || Number(applied) >= Number(seq)).toBe(true)
  await client.close()
}, 30_000)
