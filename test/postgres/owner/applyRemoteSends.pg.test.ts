/**
 * R55 end to end on PostgreSQL: a client sends into a session another agent drives; the owner
 * applies each remote send under the sender's id, routed by its window when applied (a remote
 * steer lands in the running turn), and the client's `outcome(id)` reads what became of it from
 * the database. A new owner applies only what left no trace.
 */
import pg from 'pg'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createAgent } from '../../../src/index.js'
import { applyRemoteSends, connectSessions, migrate, openPostgresSession } from '../../../src/postgres.js'
import { gate, setup, texts } from '../../support/agents.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'
import { until } from '../../support/until.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(() => db.drop())

it('R55, R4: a remote followup wakes the owner, and a remote steer lands in its running turn', async () => {
  const client = connectSessions(db.pool, { pollMs: 100 })
  const remote = client.session('applied')
  const store = await openPostgresSession(db.pool, 'applied', { pollMs: 100 })
  await store.takeLease()
  const g = gate()
  const { agent, model } = setup([g.reply, 'done'], { store })
  const feed = applyRemoteSends(agent, store)

  const prompt = await remote.followup('hello from elsewhere')
  await until(() => agent.status === 'running', 'the remote followup to run')
  const steer = await remote.steer('be brief')
  await until(() => agent.inbox.outbox.length > 0, 'the remote steer to be applied')
  g.release('ok')
  await agent.whenIdle()
  await agent.session.flush()

  expect(texts(model.requests[0]?.messages ?? [])).toEqual(['hello from elsewhere'])
  expect(texts(model.requests[1]?.messages ?? []).at(-1)).toBe('be brief')
  expect(await remote.outcome(prompt)).toMatchObject({ kind: 'delivered', as: 'prompt', turn: 1 })
  expect(await remote.outcome(steer)).toMatchObject({ kind: 'delivered', as: 'steering', turn: 1 })
  feed.unsubscribe()
  await agent.dispose()
  await store.release()

  // A new owner has nothing left to apply: both ids are in the transcript.
  const next = await openPostgresSession(db.pool, 'applied')
  await next.takeLease()
  expect(next.remoteSends).toEqual([])
  await next.release()
  await client.close()
})

it('R55: a refusal the owner decides is settled in the journal, and the client reads it as the outcome', async () => {
  const client = connectSessions(db.pool, { pollMs: 100 })
  const remote = client.session('refused')
  const store = await openPostgresSession(db.pool, 'refused', { pollMs: 100 })
  await store.takeLease()
  const agent = createAgent({ model: setup(['x']).model, store })
  const feed = applyRemoteSends(agent, store)
  // The agent is idle: a guarded steer for turn 7 cannot land (R49).
  const id = await remote.steer('too late', { turn: 7 })
  const outcome = await remote.outcome(id)
  expect(outcome).toMatchObject({ kind: 'refused', error: { name: 'TurnMismatchError' } })
  feed.unsubscribe()
  await agent.dispose()
  await store.release()
  await client.close()
})

it('R55: the sessions one process owns on a pool share one LISTEN connection, and a remote send still reaches each', async () => {
  const pool = new pg.Pool({ connectionString: db.url, application_name: 'shared-listen', max: 8 })
  pool.on('error', () => {})
  const owned = await Promise.all(
    ['listen-a', 'listen-b', 'listen-c', 'listen-d'].map(async (id) => {
      const store = await openPostgresSession(pool, id, { pollMs: 60_000 })
      await store.takeLease()
      const { agent } = setup(['ok'], { store })
      return { id, store, agent, feed: applyRemoteSends(agent, store) }
    }),
  )
  const listening = async (): Promise<number> => {
    const { rows } = await db.pool.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE application_name = 'shared-listen' AND query LIKE 'LISTEN%'`,
    )
    return (rows[0] as { n: number }).n
  }
  await until(async () => (await listening()) > 0, 'the shared LISTEN')
  expect(await listening()).toBe(1)
  // Woken through the shared connection (polling is a minute away).
  const client = connectSessions(db.pool)
  await Promise.all(owned.map(({ id }) => client.session(id).followup(`to ${id}`)))
  for (const { agent } of owned) {
    for (let tries = 0; agent.status === 'idle' && agent.session.events.length === 0 && tries < 400; tries++)
      await new Promise((resolve) => setTimeout(resolve, 25))
    await agent.whenIdle()
    expect(agent.session.messages().map((m) => m.role)).toEqual(['user', 'assistant'])
  }
  for (const { agent, store, feed } of owned) {
    feed.unsubscribe()
    await agent.dispose()
    await store.release()
  }
  await client.close()
  await pool.end()
}, 60_000)
