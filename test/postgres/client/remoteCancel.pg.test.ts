/**
 * R58 cancel from anywhere on PostgreSQL: a remote `cancel` reaches the owner and behaves as R25
 * and R26 there; with no owner the client takes the lease, applies R25 to the stored inbox and
 * releases it, without ever running a turn.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { AgentMessageId } from '../../../src/index.js'
import { connectSessions, migrate, openPostgresSession } from '../../../src/postgres.js'
import type { ScriptedReply } from '../../../src/testing.js'
import { gate, setup } from '../../support/agents.js'
import { committedEvents, ownSession, until } from '../../support/postgresOwner.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(() => db.drop())

const owner = (sessionId: string, script: readonly ScriptedReply[]) => ownSession(db.pool, sessionId, script)

const events = (sessionId: string) => committedEvents(db.pool, sessionId)

it('R58, R25: a remote cancel reaches the owner: the running turn is cancelled and the queue discarded', async () => {
  const client = connectSessions(db.pool, { pollMs: 100 })
  const remote = client.session('cancel-owned')
  const g = gate()
  const { agent, model, release } = await owner('cancel-owned', [g.reply, 'never'])
  const first = await remote.followup('first')
  await until(() => agent.status === 'running', 'the turn')
  const queued = await Promise.all([remote.followup('q1'), remote.followup('q2')])
  await until(() => agent.inbox.queue.length === 2, 'the queue')
  await remote.cancel({ kind: 'user' })
  await until(() => agent.status === 'idle', 'the cancel')
  await agent.session.flush()
  expect(model.requests).toHaveLength(1)
  expect(await remote.outcome(first)).toMatchObject({ kind: 'delivered', as: 'prompt', turn: 1 })
  for (const id of queued) expect(await remote.outcome(id)).toEqual({ kind: 'discarded', reason: 'cancel' })
  expect(
    (await events('cancel-owned')).filter((e) => e.type === 'turn/end').map((e) => e.data),
  ).toMatchObject([{ reason: { kind: 'aborted' } }])
  await release()
  await client.close()
})

it('R58, R26: a remote cancel with keepInbox reaches the owner: the turn is cancelled, the queue runs next', async () => {
  const client = connectSessions(db.pool, { pollMs: 100 })
  const remote = client.session('cancel-kept')
  const g = gate()
  const { agent, model, release } = await owner('cancel-kept', [g.reply, 'a1', 'a2'])
  await remote.followup('first')
  await until(() => agent.status === 'running', 'the turn')
  const [q1, q2] = await Promise.all([remote.followup('q1'), remote.followup('q2')])
  await until(() => agent.inbox.queue.length === 2, 'the queue')
  await remote.cancel({ kind: 'user' }, { keepInbox: true })
  await until(() => model.requests.length === 3 && agent.status === 'idle', 'the queue to run')
  await agent.session.flush()
  expect(await remote.outcome(q1!)).toMatchObject({ kind: 'delivered', as: 'prompt', turn: 2 })
  expect(await remote.outcome(q2!)).toMatchObject({ kind: 'delivered', as: 'prompt', turn: 3 })
  const ends = (await events('cancel-kept')).filter((e) => e.type === 'turn/end')
  expect(ends).toHaveLength(3)
  expect(ends[0]?.data).toMatchObject({ reason: { kind: 'aborted' } })
  await release()
  await client.close()
})

/** A session whose owner staged steering and context in a running turn and queued a prompt, then let it go. */
const storedInbox = async (sessionId: string) => {
  const client = connectSessions(db.pool, { pollMs: 100 })
  const remote = client.session(sessionId)
  const g = gate()
  const { agent, release } = await owner(sessionId, [g.reply])
  await remote.followup('first')
  await until(() => agent.status === 'running', 'the turn')
  const steer = await remote.steer('steer this')
  const context = await remote.inject('context')
  const queued = await remote.followup('queued')
  await until(() => agent.inbox.queue.length === 1 && agent.inbox.outbox.length === 2, 'the inbox')
  await release()
  return { client, remote, steer, context, queued }
}

const turnStarts = async (sessionId: string) =>
  (await events(sessionId)).filter((e) => e.type === 'turn/start').length

it('R58, R25, V1: with no owner the client takes the lease, discards queued and steering, appends context, and releases', async () => {
  const { client, remote, steer, context, queued } = await storedInbox('cancel-ownerless')
  const starts = await turnStarts('cancel-ownerless')
  await remote.cancel()
  expect(await remote.outcome(queued)).toEqual({ kind: 'discarded', reason: 'cancel' })
  expect(await remote.outcome(steer)).toEqual({ kind: 'discarded', reason: 'cancel' })
  expect(await remote.outcome(context)).toMatchObject({ kind: 'delivered', as: 'context' })
  expect(await turnStarts('cancel-ownerless')).toBe(starts)
  // The lease was released, the cancel recorded as applied: the next owner has nothing to do.
  const next = await openPostgresSession(db.pool, 'cancel-ownerless')
  await next.takeLease()
  expect(next.remoteRequests).toEqual([])
  expect(next.inbox.load().filter((r) => r.op === 'add').length).toBeGreaterThan(0)
  await next.release()
  await client.close()
})

it('R58, R26, R6: with no owner a keepInbox cancel keeps the stored inbox and never starts a turn', async () => {
  const { client, remote, queued } = await storedInbox('cancel-ownerless-kept')
  const starts = await turnStarts('cancel-ownerless-kept')
  await remote.cancel({ kind: 'user' }, { keepInbox: true })
  expect(await turnStarts('cancel-ownerless-kept')).toBe(starts)
  const next = await openPostgresSession(db.pool, 'cancel-ownerless-kept')
  expect(next.remoteRequests).toEqual([])
  await next.takeLease()
  // The queued prompt still waits for the next owner: it runs there, once.
  const { agent, model } = setup(['answer'], { store: next })
  await agent.whenIdle()
  await agent.session.flush()
  expect(model.requests).toHaveLength(1)
  expect(await remote.outcome(queued as AgentMessageId)).toMatchObject({ kind: 'delivered', as: 'prompt' })
  await agent.dispose()
  await next.release()
  await client.close()
})

it('R58: a remote cancel the owner holds the lease for is applied by the owner, not by the client', async () => {
  const client = connectSessions(db.pool, { pollMs: 100 })
  const remote = client.session('cancel-held')
  const g = gate()
  const { agent, release } = await owner('cancel-held', [g.reply])
  await remote.followup('first')
  await until(() => agent.status === 'running', 'the turn')
  const epoch = (await db.pool.query('SELECT epoch FROM steerable_sessions WHERE id = $1', ['cancel-held']))
    .rows[0].epoch
  await remote.cancel()
  await until(() => agent.status === 'idle', 'the cancel')
  // Nobody else took the lease: the epoch is the owner's still.
  const after = (await db.pool.query('SELECT epoch FROM steerable_sessions WHERE id = $1', ['cancel-held']))
    .rows[0].epoch
  expect(after).toBe(epoch)
  await release()
  await client.close()
})
