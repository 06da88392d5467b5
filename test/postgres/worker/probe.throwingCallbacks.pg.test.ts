/**
 * Hostile probes of the callbacks the PostgreSQL side calls (R57, R54): outside code may throw
 * anything from `onError` or `failed`, and the worker or owner must carry on as documented.
 */
import pg from 'pg'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type AgentMessageId, SessionStoreError } from '../../../src/index.js'
import {
  applyRemoteSends,
  connectSessions,
  createWorker,
  migrate,
  openPostgresSession,
} from '../../../src/postgres.js'
import { scriptedModel } from '../../../src/testing.js'
import { gate, setup } from '../../support/agents.js'
import { until } from '../../support/postgresOwner.js'
import { terminablePool } from '../../support/terminablePool.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(() => db.drop())

it('R57: a worker whose onError throws after a failed scan keeps scanning and serves the next send', async () => {
  let reported = 0
  const worker = createWorker({
    pool: db.pool,
    agent: () => ({ model: scriptedModel(['served']) }),
    pollMs: 100,
    idleMs: 100,
    timeoutMs: 1_000,
    onError: () => {
      reported++
      throw null
    },
  })
  const client = connectSessions(db.pool, { pollMs: 100 })
  try {
    // The scans time out while the table is locked: onError is called, and throws.
    const locker = await db.pool.connect()
    await locker.query('BEGIN')
    await locker.query('LOCK TABLE steerable_inbox IN ACCESS EXCLUSIVE MODE')
    await until(() => reported > 0, 'a failed scan')
    await locker.query('ROLLBACK')
    locker.release()
    const session = client.session('after-throwing-onerror')
    const id = await session.followup('still serving?')
    // A hang check, not a performance bound: the worker polls every 100 ms.
    const outcome = await Promise.race([
      session.outcome(id),
      new Promise((resolve) => setTimeout(() => resolve('never served'), 15_000)),
    ])
    expect(outcome).toMatchObject({ kind: 'delivered', as: 'prompt' })
  } finally {
    await worker.close()
    await client.close()
  }
}, 60_000)

it('R54: an owner whose `failed` handler throws still stops driving when it loses its lease', async () => {
  const { pool, terminate } = terminablePool(db, 'probe-lease-lost', 3)
  const store = await openPostgresSession(pool, 'failed-throws', { pollMs: 100 })
  await store.takeLease()
  const g = gate()
  const { agent } = setup([g.reply, 'never'], { store })
  let told = 0
  const feed = applyRemoteSends(agent, store, {
    failed: () => {
      told++
      throw Symbol('hostile')
    },
  })
  agent.followup('first')
  await until(() => agent.status === 'running', 'the turn')
  await terminate()
  await until(() => store.failure !== undefined && told > 0, 'the lease loss')
  await until(() => agent.status === 'idle', 'the agent to stop').catch(() => undefined)
  expect(agent.status).toBe('idle')
  expect(() => agent.followup('late')).toThrow(/disposed/)
  feed.unsubscribe()
  g.release('late reply')
  await pool.end()
}, 60_000)

it('R57, R59: agent options createAgent refuses do not leave the session locked: the worker serves it once they are good', async () => {
  let calls = 0
  const errors: unknown[] = []
  const worker = createWorker({
    pool: db.pool,
    // The first options are refused by createAgent (after the worker took the lease).
    agent: () => (calls++ === 0 ? { model: 'not a model' as never } : { model: scriptedModel(['served']) }),
    pollMs: 100,
    idleMs: 100,
    onError: (error) => errors.push(error),
  })
  const client = connectSessions(db.pool, { pollMs: 100 })
  try {
    const session = client.session('bad-options')
    const id = await session.followup('hello')
    const outcome = await Promise.race([
      session.outcome(id),
      new Promise((resolve) => setTimeout(() => resolve('never served'), 15_000)),
    ])
    expect(errors.length).toBeGreaterThan(0)
    expect(outcome).toMatchObject({ kind: 'delivered', as: 'prompt' })
  } finally {
    await worker.close()
    await client.close()
  }
}, 60_000)

it('R59: with the database unreachable, remote edits and cancel reject with SessionStoreError, and events$ stays silent', async () => {
  const dead = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none', max: 2 })
  dead.on('error', () => {})
  const client = connectSessions(dead, { timeoutMs: 1_000, pollMs: 100 })
  const remote = client.session('unreachable')
  let failed: unknown
  const sub = remote.events$.subscribe({ error: (e) => (failed = e) })
  const calls = [
    remote.cancel(),
    remote.remove('x' as AgentMessageId),
    remote.replace('x' as AgentMessageId, 'y'),
    remote.move('x' as AgentMessageId, 0),
    remote.promote('x' as AgentMessageId),
  ]
  const results = await Promise.allSettled(calls)
  for (const r of results) {
    expect(r.status).toBe('rejected')
    expect((r as PromiseRejectedResult).reason).toBeInstanceOf(SessionStoreError)
  }
  await new Promise((resolve) => setTimeout(resolve, 300))
  expect(failed).toBeUndefined()
  sub.unsubscribe()
  await client.close()
  await dead.end()
}, 30_000)
