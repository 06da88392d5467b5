/**
 * R65 on PostgreSQL, with the owner in this process: `client.session(id).approve`, `.deny` and
 * `.approvals$` from a client; decisions are journal rows the owner applies in order with sends
 * and edits; a decision on a call that is not pending settles refused (`ApprovalNotPendingError`)
 * and never throws in the owner; followers of `events$` see the pause as the owner published it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  type AgentEvent,
  ApprovalNotPendingError,
  InvalidInputError,
  type PendingApproval,
} from '../../../src/index.js'
import { liveChannel } from '../../../src/postgres/channels.js'
import { connectSessions, migrate, publishEvents, type RemoteAgentEvent } from '../../../src/postgres.js'
import { hostileValues } from '../../support/hostile.js'
import { approvalOwner, callShell, journal } from '../../support/postgresApprovals.js'
import { committedEvents, until } from '../../support/postgresOwner.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(() => db.drop())

/** How many connections LISTEN to the session's live channel (their last statement says so). */
const listeners = async (session: string): Promise<number> => {
  const { rows } = await db.pool.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query = $1`,
    [`LISTEN ${liveChannel(session)}`],
  )
  return rows[0]?.n as number
}

it('R65, R62, R2: approve and deny check their arguments at once like the local calls, and store nothing when refused', async () => {
  const client = connectSessions(db.pool)
  const session = client.session('refused-decisions')
  expect(() => session.approve(42 as never)).toThrow(/approve\(\): callId/)
  expect(() => session.deny('c1', { reason: 5 } as never)).toThrow(/deny\(\): options\.reason/)
  expect(() => session.approve('c1', { why: 'x' } as never)).toThrow(/approve\(\)/)
  expect(() => session.deny('c1', { source: { kind: '' } } as never)).toThrow(/deny\(\): options\.source/)
  for (const value of Object.values(hostileValues())) {
    expect(() => session.approve(value as never)).toThrow(InvalidInputError)
    // An absent reason is no reason; any other value that is not a string is refused.
    if (value !== undefined)
      expect(() => session.deny('c1', { reason: value } as never)).toThrow(InvalidInputError)
  }
  // Each call threw before it made a Promise: no write was started, so none can land later.
  expect(await journal(db.pool, 'refused-decisions')).toEqual([])
  await client.close()
})

it('R65, R61, R62, V9: a client sees the pause in approvals$, approves, and the owner runs the call once; the turn completes', async () => {
  const client = connectSessions(db.pool, { pollMs: 100 })
  const remote = client.session('approved-remotely')
  const owner = await approvalOwner(db.pool, 'approved-remotely', [
    { toolCalls: [callShell('c1', 'ls')] },
    'done',
  ])
  const lists: (readonly PendingApproval[])[] = []
  const following = remote.approvals$.subscribe((list) => lists.push(list))
  await until(() => lists.length === 1, 'the list on subscribe')
  expect(lists[0]).toEqual([])

  await remote.followup('go')
  await until(() => lists.at(-1)?.length === 1, 'the pending approval')
  const events = await committedEvents(db.pool, 'approved-remotely')
  const request = events.find((e) => e.type === 'approval/request')
  expect(lists.at(-1)).toEqual([
    {
      turn: 1,
      step: 1,
      callId: 'c1',
      index: 0,
      key: '1.1.0',
      name: 'shell',
      arguments: '{"cmd":"ls"}',
      requestedSeq: request?.seq,
    },
  ])
  expect(lists.at(-1)).toEqual(owner.agent.approvals)
  expect(Object.isFrozen(lists.at(-1))).toBe(true)
  expect(owner.agent.status).toBe('paused')
  expect(owner.ran).toEqual([])

  await remote.approve('c1')
  // Resolved once applied: its decision is committed.
  const decisions = (await committedEvents(db.pool, 'approved-remotely')).filter(
    (e) => e.type === 'approval/decision',
  )
  expect(decisions.map((e) => e.data)).toEqual([
    { turn: 1, step: 1, callId: 'c1', index: 0, decision: 'approved', source: { kind: 'user' } },
  ])
  await until(() => lists.at(-1)?.length === 0, 'the empty list')
  await owner.agent.whenIdle()
  await owner.agent.session.flush()
  expect(owner.ran).toEqual(['ls'])
  const after = await committedEvents(db.pool, 'approved-remotely')
  expect(after.filter((e) => e.type === 'tool/result')).toHaveLength(1)
  expect(after.at(-1)).toMatchObject({ type: 'turn/end', data: { reason: { kind: 'completed' } } })
  expect(owner.failures).toEqual([])
  following.unsubscribe()
  await owner.release()
  await client.close()
})

it('R65, R62: a remote deny with a reason gives the call a DENIED result that carries it; the call never runs', async () => {
  const client = connectSessions(db.pool, { pollMs: 100 })
  const remote = client.session('denied-remotely')
  const owner = await approvalOwner(db.pool, 'denied-remotely', [
    { toolCalls: [callShell('c1', 'rm -rf /')] },
    'ok',
  ])
  await remote.followup('go')
  await until(() => owner.agent.status === 'paused', 'the pause')
  const source = { kind: 'plugin', plugin: 'reviewer' } as const
  await remote.deny('c1', { reason: 'not on prod', source })
  await owner.agent.whenIdle()
  await owner.agent.session.flush()
  const events = await committedEvents(db.pool, 'denied-remotely')
  expect(events.find((e) => e.type === 'approval/decision')?.data).toMatchObject({
    callId: 'c1',
    decision: 'denied',
    reason: 'not on prod',
    source,
  })
  const result = events.find((e) => e.type === 'tool/result')
  expect(result?.data).toMatchObject({ result: { toolCallId: 'c1', isError: true, code: 'DENIED' } })
  expect(JSON.stringify(result)).toContain('not on prod')
  expect(owner.ran).toEqual([])
  await owner.release()
  await client.close()
})

it('R65, V9: a remote decision on a call that is not pending settles refused (ApprovalNotPendingError) and never harms the owner', async () => {
  const client = connectSessions(db.pool, { pollMs: 100 })
  const remote = client.session('refused-remotely')
  const owner = await approvalOwner(db.pool, 'refused-remotely', [
    { toolCalls: [callShell('c1', 'ls')] },
    'done',
  ])
  // Nothing is paused yet: a decision on any id is refused.
  await expect(remote.approve('c1')).rejects.toThrow(ApprovalNotPendingError)
  await remote.followup('go')
  await until(() => owner.agent.status === 'paused', 'the pause')
  const refused = await remote.approve('no-such-call').then(
    () => undefined,
    (error: unknown) => error,
  )
  expect(refused).toBeInstanceOf(ApprovalNotPendingError)
  expect(refused).toMatchObject({
    callId: 'no-such-call',
    message: expect.stringMatching(/^approve\(\): no approval is pending .*session\.approvals\$ lists/),
  })
  await expect(remote.deny('no-such-call')).rejects.toThrow(/^deny\(\): no approval is pending/)
  // The owner is as it was: paused on c1, nothing ran, nothing failed.
  expect(owner.agent.status).toBe('paused')
  expect(owner.agent.approvals.map((a) => a.callId)).toEqual(['c1'])
  expect(owner.failures).toEqual([])
  // The refusals are settlements under the requests' ids, with the error as data.
  const settled = (await journal(db.pool, 'refused-remotely')).filter((row) => row.op === 'settle')
  expect(settled.map((row) => row.record.outcome)).toEqual(
    Array(3).fill({
      kind: 'refused',
      error: { name: 'ApprovalNotPendingError', message: expect.any(String) },
    }),
  )
  // The call is decided once: a second decision on it is refused, and it ran once.
  await remote.approve('c1')
  await expect(remote.approve('c1')).rejects.toThrow(ApprovalNotPendingError)
  await owner.agent.whenIdle()
  expect(owner.ran).toEqual(['ls'])
  expect(owner.failures).toEqual([])
  await owner.release()
  await client.close()
})

it('R56, R61, R80: followers see a pause live: status paused, approval requested and budget exceeded arrive as the owner published them', async () => {
  const client = connectSessions(db.pool, { pollMs: 100 })
  const seen: RemoteAgentEvent[] = []
  const following = client.session('paused-live').events$.subscribe((event) => seen.push(event))
  await until(async () => (await listeners('paused-live')) === 1, 'the LISTEN')
  const owner = await approvalOwner(
    db.pool,
    'paused-live',
    [{ toolCalls: [callShell('c1', 'ls')] }, { toolCalls: [callShell('c2', 'pwd')] }],
    [],
    // Two requests are all it allows: the turn pauses before a third.
    { budget: { maxRequests: 2, onExceed: 'pause' } },
  )
  const local: AgentEvent[] = []
  owner.agent.events$.subscribe((event) => local.push(event))
  const publishing = publishEvents(owner.agent, db.pool, 'paused-live')
  await client.session('paused-live').followup('go')
  await until(() => owner.agent.status === 'paused', 'the approval pause')
  await client.session('paused-live').approve('c1')
  await until(() => owner.agent.approvals.some((a) => a.callId === 'c2'), 'the second approval pause')
  await client.session('paused-live').deny('c2')
  await until(() => local.some((e) => e.type === 'agent/budget/exceeded'), 'the budget pause')
  await until(() => seen.length === local.length, 'every event')
  expect(seen).toStrictEqual(JSON.parse(JSON.stringify(local)))
  const statuses = seen.flatMap((e) => (e.type === 'agent/status' ? [e.status] : []))
  expect(statuses).toContain('paused')
  expect(seen.some((e) => e.type === 'agent/approval/requested' && e.callId === 'c1')).toBe(true)
  following.unsubscribe()
  publishing.unsubscribe()
  await owner.release()
  await client.close()
})

it('V9, R65, R62: two calls with one id are listed apart by key; a remote decision by the shared id is refused, by key it decides', async () => {
  const client = connectSessions(db.pool, { pollMs: 100 })
  const remote = client.session('shared-ids-remotely')
  const owner = await approvalOwner(db.pool, 'shared-ids-remotely', [
    { toolCalls: [callShell('c1', 'rm /tmp/a'), callShell('c1', 'rm /')] },
    'done',
  ])
  const lists: (readonly PendingApproval[])[] = []
  const following = remote.approvals$.subscribe((list) => lists.push(list))
  await remote.followup('go')
  await until(() => lists.at(-1)?.length === 2, 'both pending approvals')
  expect(lists.at(-1)?.map((a) => [a.callId, a.key, a.arguments])).toEqual([
    ['c1', '1.1.0', '{"cmd":"rm /tmp/a"}'],
    ['c1', '1.1.1', '{"cmd":"rm /"}'],
  ])
  expect(lists.at(-1)).toEqual(owner.agent.approvals)
  // Ambiguous: the owner refuses it under its own id (its record holds the InvalidInputError that
  // lists the keys; the client reads a refused decision back as not pending) and is unharmed.
  await expect(remote.approve('c1')).rejects.toThrow(ApprovalNotPendingError)
  expect(owner.agent.approvals).toHaveLength(2)
  await remote.approve('1.1.0')
  await remote.deny('1.1.1', { reason: 'never' })
  await owner.agent.whenIdle()
  await owner.agent.session.flush()
  expect(owner.ran).toEqual(['rm /tmp/a'])
  const results = owner.agent.session.events.flatMap((e) =>
    e.type === 'tool/result' ? [e.data.result.code ?? 'ok'] : [],
  )
  expect(results).toEqual(['ok', 'DENIED'])
  expect(owner.failures).toEqual([])
  following.unsubscribe()
  await owner.release()
  await client.close()
})
