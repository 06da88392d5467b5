/**
 * R71 with no owner, on PostgreSQL: a tool call's cancel stored while nobody drives the session is
 * waiting work, as a decision is (R65): a worker takes the session because of it and applies it.
 * A cancel with no owner behind it leaves both to that worker: its tool-less agent could not let
 * the turn go on after the cancelled call.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { sessionsWithWork } from '../../../src/postgres/worker/sessionsWithWork.js'
import { connectSessions, createWorker, migrate } from '../../../src/postgres.js'
import { scriptedModel } from '../../../src/testing.js'
import { approvalOwner, callShell, journal, shellTool } from '../../support/postgresApprovals.js'
import { committedEvents, until } from '../../support/postgresOwner.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(() => db.drop())

/** A session paused on `c1` (`shell ls`) whose owner let it go: nobody drives it now. */
const pausedWithoutOwner = async (sessionId: string) => {
  const owner = await approvalOwner(db.pool, sessionId, [{ toolCalls: [callShell('c1', 'ls')] }])
  const client = connectSessions(db.pool, { pollMs: 100 })
  const remote = client.session(sessionId)
  await remote.followup('go')
  await until(() => owner.agent.status === 'paused', 'the pause')
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

const startWorker = (ran: { tool: ReturnType<typeof shellTool>['tool'] }) =>
  createWorker({
    pool: db.pool,
    agent: () => ({ model: scriptedModel(['done', 'done']), tools: [ran.tool] }),
    pollMs: 100,
    idleMs: 100,
  })

it('R71, R57: a tool call cancel waits for an owner: a worker takes the session because of it, the call is cancelled (true) and never runs', async () => {
  const session = 'tool-cancel-wakes-a-worker'
  const { client, remote } = await pausedWithoutOwner(session)
  expect(await withWork(session)).toBe(false)
  const cancelled = remote.cancelToolCall('c1', { reason: 'not now' })
  await until(
    async () => (await journal(db.pool, session)).some((r) => r.op === 'remote-cancel-call'),
    'the row',
  )
  expect(await withWork(session)).toBe(true)
  const shell = shellTool()
  const worker = startWorker(shell)
  try {
    expect(await cancelled).toBe(true)
    await until(
      async () => (await committedEvents(db.pool, session)).at(-1)?.type === 'turn/end',
      'the turn end',
    )
    const events = await committedEvents(db.pool, session)
    expect(events.find((e) => e.type === 'tool/result')?.data).toMatchObject({
      result: { toolCallId: 'c1', code: 'CANCELLED' },
    })
    expect(JSON.stringify(events)).toContain('not now')
    expect(events.at(-1)?.data).toMatchObject({ reason: { kind: 'completed' } })
    expect(shell.ran).toEqual([])
    await until(async () => !(await withWork(session)), 'the row answered')
    // The call is settled: a cancel of it now, with an owner or not, is false.
    expect(await remote.cancelToolCall('c1')).toBe(false)
  } finally {
    await worker.close()
    await client.close()
  }
})

it('R58, R71: a cancel with no owner behind a stored tool call cancel leaves both to a worker, which applies them in journal order', async () => {
  const session = 'cancel-behind-a-tool-cancel'
  const { client, remote } = await pausedWithoutOwner(session)
  const before = await committedEvents(db.pool, session)
  const taken = await epoch(session)
  const callCancelled = remote.cancelToolCall('c1')
  const cancelled = remote.cancel()
  // The client took the lease for its cancel and let it go, having applied nothing.
  await until(
    async () => (await epoch(session)) > taken && (await leases()) === 0,
    'the client taking the lease and letting it go',
  )
  expect(await committedEvents(db.pool, session)).toEqual(before)
  expect(await withWork(session)).toBe(true)
  const shell = shellTool()
  const worker = startWorker(shell)
  try {
    expect(await callCancelled).toBe(true)
    await cancelled
    await until(async () => !(await withWork(session)), 'both applied')
    const events = await committedEvents(db.pool, session)
    expect(events.filter((e) => e.type === 'tool/result').map((e) => e.data)).toMatchObject([
      { result: { toolCallId: 'c1', code: 'CANCELLED' } },
    ])
    expect(shell.ran).toEqual([])
  } finally {
    await worker.close()
    await client.close()
  }
})
