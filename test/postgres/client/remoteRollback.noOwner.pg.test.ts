/**
 * R77 with no owner, on PostgreSQL: a rollback stored while nobody drives the session is waiting
 * work, as a decision is (R65): a worker takes the session because of it and applies it at its
 * idle moment. A cancel with no owner behind it leaves both to that worker.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { sessionsWithWork } from '../../../src/postgres/worker/sessionsWithWork.js'
import { connectSessions, createWorker, migrate } from '../../../src/postgres.js'
import { scriptedModel } from '../../../src/testing.js'
import { journal } from '../../support/postgresApprovals.js'
import { committedEvents, ownSession, until } from '../../support/postgresOwner.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(() => db.drop())

/** Two turns, then the owner let the session go: nobody drives it now. */
const twoTurnsWithoutOwner = async (sessionId: string) => {
  const owner = await ownSession(db.pool, sessionId, ['a1', 'a2'])
  const client = connectSessions(db.pool, { pollMs: 100 })
  const remote = client.session(sessionId)
  await remote.followup('one')
  await remote.followup('two')
  await until(
    async () => (await committedEvents(db.pool, sessionId)).filter((e) => e.type === 'turn/end').length === 2,
    'two turns',
  )
  await owner.release()
  return { client, remote }
}

const withWork = async (sessionId: string): Promise<boolean> => {
  const found = await sessionsWithWork((text, values) => db.pool.query(text, values), 1_000)
  return found.some((s) => s.id === sessionId)
}

const epoch = async (sessionId: string) =>
  Number(
    (await db.pool.query('SELECT epoch FROM steerable_sessions WHERE id = $1', [sessionId])).rows[0]?.epoch,
  )

/** How many leases are held in this test's database (each is an advisory lock). */
const leases = async (): Promise<number> =>
  Number(
    (
      await db.pool.query(
        `SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory'
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      )
    ).rows[0]?.n,
  )

const startWorker = () =>
  createWorker({ pool: db.pool, agent: () => ({ model: scriptedModel([]) }), pollMs: 100, idleMs: 100 })

it('R77, R57: a rollback waits for an owner: a worker takes the session because of it and applies it', async () => {
  const session = 'rollback-wakes-a-worker'
  const { client, remote } = await twoTurnsWithoutOwner(session)
  expect(await withWork(session)).toBe(false)
  let resolved = false
  const rolled = remote.rollback(1).then(() => {
    resolved = true
  })
  await until(
    async () => (await journal(db.pool, session)).some((r) => r.op === 'remote-rollback'),
    'the row',
  )
  expect(await withWork(session)).toBe(true)
  // Nobody applies it: the client does not (its no-owner path is the cancel's alone).
  expect((await committedEvents(db.pool, session)).some((e) => e.type === 'rollback')).toBe(false)
  expect(resolved).toBe(false)
  const worker = startWorker()
  try {
    await rolled
    const events = await committedEvents(db.pool, session)
    expect(events.at(-1)).toMatchObject({ type: 'rollback', data: { toTurn: 1 } })
    expect((await remote.messages()).map((m) => m.role)).toEqual(['user', 'assistant'])
    await until(async () => !(await withWork(session)), 'the row answered')
  } finally {
    await worker.close()
    await client.close()
  }
})

it('R58, R77: a cancel with no owner behind a stored rollback leaves both to a worker, which applies them in journal order', async () => {
  const session = 'cancel-behind-a-rollback'
  const { client, remote } = await twoTurnsWithoutOwner(session)
  const before = await committedEvents(db.pool, session)
  const taken = await epoch(session)
  const rolled = remote.rollback(2)
  const cancelled = remote.cancel()
  // The client took the lease for its cancel and let it go, having applied nothing.
  await until(
    async () => (await epoch(session)) > taken && (await leases()) === 0,
    'the client taking the lease and letting it go',
  )
  expect(await committedEvents(db.pool, session)).toEqual(before)
  expect((await committedEvents(db.pool, session)).some((e) => e.type === 'rollback')).toBe(false)
  const worker = startWorker()
  try {
    await rolled
    await cancelled
    await until(async () => !(await withWork(session)), 'both applied')
    expect((await committedEvents(db.pool, session)).filter((e) => e.type === 'rollback')).toMatchObject([
      { data: { toTurn: 0 } },
    ])
    expect(await remote.messages()).toEqual([])
  } finally {
    await worker.close()
    await client.close()
  }
})
