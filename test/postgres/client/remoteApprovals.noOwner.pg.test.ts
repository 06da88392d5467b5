/**
 * R65 with no owner, on PostgreSQL: a paused session that its owner let go reopens paused (the
 * store restores it as a file store does), a decision stored meanwhile is waiting work that a
 * worker takes the session for, and a cancel with no owner never applies a decision itself.
 */
import { NEVER } from 'rxjs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { z } from 'zod'
import { createAgent, defineTool } from '../../../src/index.js'
import { sessionsWithWork } from '../../../src/postgres/worker/sessionsWithWork.js'
import {
  applyRemoteRequests,
  connectSessions,
  createWorker,
  migrate,
  openPostgresSession,
} from '../../../src/postgres.js'
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

const withWork = async (sessionId: string): Promise<boolean> => {
  const found = await sessionsWithWork((text, values) => db.pool.query(text, values), 1_000)
  return found.some((s) => s.id === sessionId)
}

it('R65: a paused session reopens paused on PostgreSQL, and a decision stored while nobody owned it is applied by the next owner', async () => {
  const { client, remote } = await pausedWithoutOwner('reopened-paused')
  const approved = remote.approve('c1')
  await until(
    async () => (await journal(db.pool, 'reopened-paused')).some((r) => r.op === 'remote-decide'),
    'the row',
  )

  const store = await openPostgresSession(db.pool, 'reopened-paused', { pollMs: 100 })
  await store.takeLease()
  const { tool, ran } = shellTool()
  const agent = createAgent({ model: scriptedModel(['done']), store, tools: [tool] })
  // Restored paused, not closed as an interrupted turn, before any request is applied.
  expect(agent.status).toBe('paused')
  expect(agent.approvals).toMatchObject([{ turn: 1, step: 1, callId: 'c1', name: 'shell' }])
  expect(ran).toEqual([])
  const feed = applyRemoteRequests(agent, store)
  await approved
  await agent.whenIdle()
  await agent.session.flush()
  expect(ran).toEqual(['ls'])
  const events = await committedEvents(db.pool, 'reopened-paused')
  expect(events.filter((e) => e.type === 'turn/end').map((e) => e.data)).toMatchObject([
    { turn: 1, reason: { kind: 'completed' } },
  ])
  feed.unsubscribe()
  await agent.dispose()
  await store.release()
  await client.close()
})

it('R65, R57: a decision is waiting work: a worker takes the paused session nobody owns because of it, and finishes the turn', async () => {
  const { client, remote } = await pausedWithoutOwner('decision-wakes-a-worker')
  // Paused with nobody deciding: nothing for a worker to do.
  expect(await withWork('decision-wakes-a-worker')).toBe(false)
  const { tool, ran } = shellTool()
  const worker = createWorker({
    pool: db.pool,
    agent: () => ({ model: scriptedModel(['done']), tools: [tool] }),
    pollMs: 100,
    idleMs: 100,
  })
  try {
    await remote.deny('c1', { reason: 'no' })
    await until(async () => !(await withWork('decision-wakes-a-worker')), 'the decision applied')
    await until(async () => {
      const events = await committedEvents(db.pool, 'decision-wakes-a-worker')
      return events.at(-1)?.type === 'turn/end'
    }, 'the end of the turn')
    const events = await committedEvents(db.pool, 'decision-wakes-a-worker')
    expect(events.find((e) => e.type === 'tool/result')?.data).toMatchObject({ result: { code: 'DENIED' } })
    expect(events.at(-1)?.data).toMatchObject({ reason: { kind: 'completed' } })
    expect(ran).toEqual([])
  } finally {
    await worker.close()
    await client.close()
  }
})

it('R58, R65: a cancel with no owner behind a stored decision leaves both to a worker, which applies them in journal order', async () => {
  const { client, remote } = await pausedWithoutOwner('cancel-behind-a-decision')
  const before = await committedEvents(db.pool, 'cancel-behind-a-decision')
  const epoch = async () =>
    Number(
      (
        await db.pool.query('SELECT epoch FROM steerable_sessions WHERE id = $1', [
          'cancel-behind-a-decision',
        ])
      ).rows[0]?.epoch,
    )
  const taken = await epoch()
  const approved = remote.approve('c1')
  const cancelled = remote.cancel()
  // The client took the lease for its cancel and let it go: it applied nothing, not even the
  // decision before it (its agent has no tools: the approved call would have found none).
  await until(
    async () => (await epoch()) > taken && (await leases()) === 0,
    'the client taking the lease and letting it go',
  )
  expect(await committedEvents(db.pool, 'cancel-behind-a-decision')).toEqual(before)
  expect(await withWork('cancel-behind-a-decision')).toBe(true)

  const { tool, ran } = shellTool()
  const worker = createWorker({
    pool: db.pool,
    agent: () => ({ model: scriptedModel(['done', 'done']), tools: [tool] }),
    pollMs: 100,
    idleMs: 100,
  })
  try {
    await approved
    await cancelled
    await until(async () => !(await withWork('cancel-behind-a-decision')), 'both applied')
    const events = await committedEvents(db.pool, 'cancel-behind-a-decision')
    const results = events.filter((e) => e.type === 'tool/result')
    expect(results).toHaveLength(1)
    expect(JSON.stringify(results)).not.toContain('UNKNOWN_TOOL')
    expect(events.find((e) => e.type === 'approval/decision')?.data).toMatchObject({ decision: 'approved' })
    expect(ran.length).toBeLessThanOrEqual(1)
  } finally {
    await worker.close()
    await client.close()
  }
})

it('R58, R64, R65: a cancel with no owner of a paused session aborts every call of the paused step, and runs none', async () => {
  // c1 waits for approval; c2 needs none and never finishes in the first owner.
  const never = defineTool({
    name: 'slow',
    description: 'Never ends.',
    parameters: z.object({}),
    execute: () => NEVER,
  })
  const slow = { id: 'c2', name: 'slow', arguments: '{}' }
  const owner = await approvalOwner(
    db.pool,
    'cancel-paused',
    [{ toolCalls: [callShell('c1', 'ls'), slow] }],
    [never],
  )
  const client = connectSessions(db.pool, { pollMs: 100 })
  await client.session('cancel-paused').followup('go')
  await until(() => owner.agent.status === 'paused', 'the pause')
  await owner.release()
  await client.session('cancel-paused').cancel()
  const events = await committedEvents(db.pool, 'cancel-paused')
  expect(
    events.flatMap((e) => (e.type === 'tool/result' ? [[e.data.result.toolCallId, e.data.result.code]] : [])),
  ).toEqual([
    ['c1', 'ABORTED'],
    ['c2', 'ABORTED_BEFORE_DISPATCH'],
  ])
  expect(events.at(-1)?.data).toEqual({ turn: 1, reason: { kind: 'aborted' } })
  await client.close()
})
