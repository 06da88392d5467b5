/**
 * Hostile probes of createWorker's LISTEN wake and the shared hub (R57, R59): close while a
 * session is being taken, connections left after close, two workers on one pool.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { connectSessions, createWorker, migrate } from '../../../src/postgres.js'
import { scriptedModel } from '../../../src/testing.js'
import { gate } from '../../support/agents.js'
import { until } from '../../support/postgresOwner.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(() => db.drop())

/** Whether `promise` settles within `ms` (a hang check, not a performance bound). */
const settlesWithin = (promise: Promise<unknown>, ms: number): Promise<boolean> =>
  Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
  ])

/** Backends connected to this test's database other than the one asking. */
const backends = async (): Promise<{ query: string }[]> =>
  (
    await db.pool.query(
      `SELECT query FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    )
  ).rows

it('R57: worker.close() while the worker is still taking a session does not go on to drive it (close never hangs)', async () => {
  const g = gate()
  const client = connectSessions(db.pool, { pollMs: 100 })
  const session = client.session('close-while-taking')
  // The session's row exists (a first send), then its row is locked, so the worker's takeLease
  // waits in the INSERT … ON CONFLICT DO UPDATE until the lock goes.
  await session.followup('hello')
  const locker = await db.pool.connect()
  await locker.query('BEGIN')
  await locker.query(`SELECT id FROM steerable_sessions WHERE id = 'close-while-taking' FOR UPDATE`)
  const worker = createWorker({
    pool: db.pool,
    agent: () => ({ model: scriptedModel([g.reply]) }),
    pollMs: 100,
    idleMs: 100,
  })
  await until(() => worker.sessions.has('close-while-taking'), 'the worker to start taking it')
  await new Promise((resolve) => setTimeout(resolve, 200))
  const closing = worker.close()
  await locker.query('COMMIT')
  locker.release()
  const closed = await settlesWithin(closing, 8_000)
  // Let a hung worker finish, so the file's database can be dropped.
  g.release('done')
  await closing
  await client.close()
  expect(closed).toBe(true)
}, 30_000)

it('R57, R59: after worker.close() and client.close() no connection is left checked out or LISTENing', async () => {
  const workers = [0, 1].map(() =>
    createWorker({
      pool: db.pool,
      agent: () => ({ model: scriptedModel(['a', 'b', 'c']) }),
      pollMs: 50,
      idleMs: 50,
    }),
  )
  const client = connectSessions(db.pool, { pollMs: 100 })
  const ids = await Promise.all(['conn-a', 'conn-b', 'conn-c'].map((s) => client.session(s).followup('hi')))
  await Promise.all(ids.map((id, i) => client.session(['conn-a', 'conn-b', 'conn-c'][i]!).outcome(id)))
  const events = client.session('conn-a').events$.subscribe()
  await until(async () => (await backends()).some((b) => b.query.startsWith('LISTEN')), 'a LISTEN')
  await workers[0]!.close()
  events.unsubscribe()
  await workers[1]!.close()
  await client.close()
  await until(async () => !(await backends()).some((b) => /LISTEN/.test(b.query)), 'no LISTEN left')
  // The shared hub's connection goes shortly after close() resolves (its close is not awaited).
  await until(() => db.pool.totalCount - db.pool.idleCount === 0, 'every connection back in the pool')
}, 30_000)

it('R57: a worker closed while another on the same pool runs: the other still wakes on a send at once', async () => {
  const a = createWorker({
    pool: db.pool,
    agent: () => ({ model: scriptedModel(['x']) }),
    pollMs: 600_000,
    idleMs: 50,
  })
  const b = createWorker({
    pool: db.pool,
    agent: () => ({ model: scriptedModel(['y']) }),
    pollMs: 600_000,
    idleMs: 50,
  })
  const client = connectSessions(db.pool, { pollMs: 100 })
  try {
    await new Promise((resolve) => setTimeout(resolve, 300))
    await a.close()
    const session = client.session('after-close')
    const id = await session.followup('still there?')
    expect(await session.outcome(id)).toMatchObject({ kind: 'delivered', as: 'prompt' })
  } finally {
    await b.close()
    await client.close()
  }
}, 30_000)

it('R57: worker.close() while a session it drives is mid-turn on a model that never answers resolves, and the next owner runs the turn', async () => {
  const g = gate()
  const worker = createWorker({
    pool: db.pool,
    agent: () => ({ model: scriptedModel([g.reply]) }),
    pollMs: 100,
    idleMs: 100,
  })
  const client = connectSessions(db.pool, { pollMs: 100 })
  const session = client.session('close-mid-turn')
  const id = await session.followup('long one')
  await until(g.called, 'the turn to call the model')
  const closing = worker.close()
  const closed = await settlesWithin(closing, 8_000)
  g.release('late')
  await closing
  expect(closed).toBe(true)
  const next = createWorker({
    pool: db.pool,
    agent: () => ({ model: scriptedModel(['again']) }),
    pollMs: 100,
    idleMs: 100,
  })
  try {
    expect(await session.outcome(id)).toMatchObject({ kind: 'delivered', as: 'prompt' })
    const ends = await db.pool.query(
      `SELECT event FROM steerable_events WHERE session_id = 'close-mid-turn' AND event->>'type' = 'turn/end'`,
    )
    expect(ends.rows.length).toBeGreaterThan(0)
  } finally {
    await next.close()
    await client.close()
  }
}, 30_000)
