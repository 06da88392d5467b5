/**
 * R55 remote inbox controls on PostgreSQL: a client's `remove`, `replace`, `move` and `promote`
 * are checked at once like the local calls, stored as journal rows in order with its sends, and
 * applied by the owner in journal order through its own operations; a new owner applies only
 * the edits no owner applied before.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type AgentMessageId, InvalidInputError, type SessionEvent } from '../../../src/index.js'
import {
  applyRemoteSends,
  connectSessions,
  createWorker,
  migrate,
  openPostgresSession,
} from '../../../src/postgres.js'
import { extensionsOf } from '../../../src/runtime/extensions.js'
import { scriptedModel } from '../../../src/testing.js'
import { gate, setup } from '../../support/agents.js'
import { hostileValues } from '../../support/hostile.js'
import { until } from '../../support/postgresOwner.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(() => db.drop())

const journal = async (sessionId: string) =>
  (
    await db.pool.query<{ seq: string; op: string; record: Record<string, unknown> }>(
      'SELECT seq, op, record FROM steerable_inbox WHERE session_id = $1 ORDER BY seq',
      [sessionId],
    )
  ).rows

const textOf = (event: SessionEvent | undefined): string =>
  ((event?.data as { content?: { text?: string }[] } | undefined)?.content ?? []).map((b) => b.text).join('')

it('R55, R2: remote edits check their arguments at once like the local calls, and store nothing when refused', async () => {
  const client = connectSessions(db.pool)
  const session = client.session('refused-edits')
  const id = 'some-id' as AgentMessageId
  expect(() => session.remove('' as AgentMessageId)).toThrow(InvalidInputError)
  expect(() => session.remove(42 as never)).toThrow(/remove\(\): id/)
  expect(() => session.promote(null as never)).toThrow(/promote\(\): id/)
  expect(() => session.replace(id, { content: 'not blocks' } as never)).toThrow(/replace\(\)/)
  for (const value of Object.values(hostileValues())) {
    expect(() => session.replace(id, value as never)).toThrow(InvalidInputError)
    expect(() => session.remove(value as never)).toThrow(InvalidInputError)
    expect(() => session.move(id, value as never)).toThrow(InvalidInputError)
    // An absent cause is `{kind: 'user'}`; any other value is refused.
    if (value !== undefined) expect(() => session.cancel(value as never)).toThrow(InvalidInputError)
  }
  expect(() => session.replace(undefined as never, 'text')).toThrow(/replace\(\): id/)
  expect(() => session.move(id, 1.5)).toThrow(/move\(\): index/)
  expect(() => session.move(id, '1' as never)).toThrow(/move\(\): index/)
  expect(() => session.cancel({ kind: 'disposed' } as never)).toThrow(/cancel\(\): cause/)
  expect(() => session.cancel({ kind: 'user' }, { keepInbox: true, hard: true } as never)).toThrow(
    /the only option is keepInbox/,
  )
  await new Promise((resolve) => setTimeout(resolve, 50))
  expect(await journal('refused-edits')).toEqual([])
  await client.close()
})

it('R55, R43, R44, R45, R46: the owner applies each remote edit in journal order with the sends, once', async () => {
  const client = connectSessions(db.pool, { pollMs: 100 })
  const remote = client.session('edited')
  const store = await openPostgresSession(db.pool, 'edited', { pollMs: 100 })
  await store.takeLease()
  const g = gate()
  const { agent, model } = setup([g.reply, 'after the steer', 'c', 'B', 'e'], { store })
  const feed = applyRemoteSends(agent, store)

  const first = await remote.followup('first')
  await until(() => agent.status === 'running', 'the first turn')
  const [a, b, c, d] = await Promise.all(['a', 'b', 'c', 'd'].map((text) => remote.followup(text)))
  // Not awaited one by one: the client stores them in the order they were made.
  const edits = [remote.remove(a!), remote.replace(b!, 'B'), remote.move(c!, 0), remote.promote(d!)]
  const e = remote.followup('e')
  await Promise.all(edits)
  const eId = await e
  await until(() => agent.inbox.queue.length === 3 && agent.inbox.outbox.length === 1, 'the edits')
  expect(agent.inbox.queue.map((i) => i.message.id)).toEqual([c, b, eId])
  expect(textOf({ data: agent.inbox.queue[1]?.message } as never)).toBe('B')
  expect(agent.inbox.outbox).toMatchObject([{ placement: 'steering', message: { id: d } }])

  const requests = (await journal('edited')).filter(
    (row) => row.op === 'send' || row.op.startsWith('remote-'),
  )
  expect(requests.map((row) => row.op)).toEqual([
    ...Array(5).fill('send'),
    'remote-remove',
    'remote-replace',
    'remote-move',
    'remote-promote',
    'send',
  ])

  g.release('ok')
  await agent.whenIdle()
  await agent.session.flush()
  expect(model.requests).toHaveLength(5)
  expect(await remote.outcome(first)).toMatchObject({ kind: 'delivered', as: 'prompt', turn: 1 })
  expect(await remote.outcome(a!)).toEqual({ kind: 'discarded', reason: 'removed' })
  expect(await remote.outcome(d!)).toMatchObject({ kind: 'delivered', as: 'steering', turn: 1 })
  expect(await remote.outcome(c!)).toMatchObject({ kind: 'delivered', as: 'prompt', turn: 2 })
  const delivered = await remote.outcome(b!)
  expect(delivered).toMatchObject({ kind: 'delivered', as: 'prompt', turn: 3 })
  expect(textOf(agent.session.events[(delivered as { seq: number }).seq - 1])).toBe('B')
  expect(await remote.outcome(eId)).toMatchObject({ kind: 'delivered', as: 'prompt', turn: 4 })

  // The last edit applied is recorded with the checkpoints: a new owner has nothing to apply.
  const promoteSeq = Number(requests[8]?.seq)
  const { rows } = await db.pool.query('SELECT remote_applied FROM steerable_sessions WHERE id = $1', [
    'edited',
  ])
  expect(Number(rows[0].remote_applied)).toBe(promoteSeq)
  feed.unsubscribe()
  await agent.dispose()
  await store.release()
  const next = await openPostgresSession(db.pool, 'edited')
  expect(next.remoteRequests).toEqual([])
  await client.close()
})

it('R55, R43–R46: edits stored while no process owns the session are applied by the next owner, in journal order', async () => {
  const client = connectSessions(db.pool, { pollMs: 100 })
  const remote = client.session('ownerless-edits')
  const a = await remote.send('a', { target: 'next-turn', wakeup: false })
  const b = await remote.send('b', { target: 'next-turn', wakeup: false })
  await remote.replace(a, 'A')
  await remote.move(b, 0)
  await remote.remove('never-sent' as AgentMessageId) // not waiting: nothing happens
  const store = await openPostgresSession(db.pool, 'ownerless-edits', { pollMs: 100 })
  expect(store.remoteRequests.map((r) => r.record.op)).toEqual([
    'send',
    'send',
    'remote-replace',
    'remote-move',
    'remote-remove',
  ])
  expect(store.remoteSends.map((r) => r.record.message.id)).toEqual([a, b])
  await store.takeLease()
  const { agent } = setup([], { store })
  const feed = applyRemoteSends(agent, store)
  await until(() => agent.inbox.queue.length === 2, 'the sends')
  expect(agent.inbox.queue.map((i) => [i.message.id, i.placement])).toEqual([
    [b, 'parked'],
    [a, 'parked'],
  ])
  expect(agent.inbox.queue[1]?.message.content).toEqual([{ type: 'text', text: 'A' }])
  await agent.session.flush()
  feed.unsubscribe()
  await agent.dispose()
  await store.release()
  const next = await openPostgresSession(db.pool, 'ownerless-edits')
  expect(next.remoteRequests).toEqual([])
  expect(next.inbox.load().filter((r) => r.op === 'replace' || r.op === 'move')).toHaveLength(2)
  await client.close()
})

it('R55, R46, R57: a remote promote of a parked item is work: a worker finds the session, applies it and runs the turn', async () => {
  const client = connectSessions(db.pool, { pollMs: 100 })
  const remote = client.session('promoted-parked')
  const parked = await remote.send('later', { target: 'next-turn', wakeup: false })
  // An owner applies the send (an `add`, parked) and lets the session go: parked alone is no work.
  const store = await openPostgresSession(db.pool, 'promoted-parked', { pollMs: 100 })
  await store.takeLease()
  const { agent } = setup([], { store })
  const feed = applyRemoteSends(agent, store)
  await until(() => agent.inbox.queue.length === 1, 'the parked send')
  feed.unsubscribe()
  await extensionsOf(agent).release()
  await store.release()
  await remote.promote(parked)
  const worker = createWorker({
    pool: db.pool,
    agent: () => ({ model: scriptedModel(['done']) }),
    pollMs: 100,
    idleMs: 100,
  })
  try {
    const outcome = await Promise.race([
      remote.outcome(parked),
      new Promise((resolve) => setTimeout(() => resolve('no worker applied the promote'), 15_000)),
    ])
    expect(outcome).toMatchObject({ kind: 'delivered', as: 'prompt', turn: 1 })
  } finally {
    await worker.close()
    await client.close()
  }
})
