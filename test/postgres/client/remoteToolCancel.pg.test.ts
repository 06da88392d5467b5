/**
 * R71 on PostgreSQL, with the owner in this process: `client.session(id).cancelToolCall` is a
 * journal row the owner applies through the agent's own `cancelToolCall`; it resolves `true` when
 * the owner cancelled the call and `false` when the call was not running, as the local call
 * returns. Followers see the call's `agent/tool/start` and `agent/tool/end` live (R72).
 */
import { filter, firstValueFrom } from 'rxjs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool, InvalidInputError } from '../../../src/index.js'
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

/** `slow` never ends by itself: it ends when its signal aborts; `quick` answers at once. */
const tools = () => {
  const aborted: string[] = []
  const slow = defineTool({
    name: 'slow',
    description: 'Waits.',
    parameters: z.object({}),
    execute: (_args, ctx) =>
      new Promise<string>((resolve) =>
        ctx.signal.addEventListener('abort', () => {
          aborted.push(ctx.callId)
          resolve('stopped')
        }),
      ),
  })
  const quick = defineTool({
    name: 'quick',
    description: 'Answers.',
    parameters: z.object({}),
    execute: () => 'quick done',
  })
  return { tools: [slow, quick], aborted }
}

const call = (id: string, name: string) => ({ id, name, arguments: '{}' })

it('R71, R2: cancelToolCall checks its arguments at once like the local call, and stores nothing when refused', async () => {
  const client = connectSessions(db.pool)
  const session = client.session('refused-tool-cancels')
  expect(() => session.cancelToolCall(42 as never)).toThrow(/^cancelToolCall\(\): callId/)
  expect(() => session.cancelToolCall('c1', { reason: 5 } as never)).toThrow(/options\.reason/)
  expect(() => session.cancelToolCall('c1', { why: 'x' } as never)).toThrow(InvalidInputError)
  for (const value of Object.values(hostileValues())) {
    expect(() => session.cancelToolCall(value as never)).toThrow(InvalidInputError)
    if (value !== undefined)
      expect(() => session.cancelToolCall('c1', { reason: value } as never)).toThrow(InvalidInputError)
  }
  // Each call threw before it made a Promise: no write was started, so none can land later.
  expect(await journal(db.pool, 'refused-tool-cancels')).toEqual([])
  await client.close()
})

it('R71, R72: a client sees the call start live, cancels it: true, the call alone ends CANCELLED with the reason, its sibling and the turn go on', async () => {
  const session = 'tool-cancelled-remotely'
  const client = connectSessions(db.pool, { pollMs: 100 })
  const remote = client.session(session)
  const { tools: more, aborted } = tools()
  const owner = await approvalOwner(
    db.pool,
    session,
    [{ toolCalls: [call('c1', 'slow'), call('c2', 'quick')] }, 'done'],
    more,
  )
  const publishing = publishEvents(owner.agent, db.pool, session)
  const seen: RemoteAgentEvent[] = []
  const following = remote.events$.subscribe((event) => seen.push(event))
  // A follower hears only what is published after it listens: the send waits for the LISTEN.
  await until(() => owner.agent.status === 'idle', 'the owner')
  await until(async () => {
    const { rows } = await db.pool.query(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query = $1',
      [`LISTEN ${liveChannel(session)}`],
    )
    return rows[0]?.n === 1
  }, 'the LISTEN')
  await remote.followup('go')
  await until(
    () => seen.some((e) => e.type === 'agent/tool/start' && e.callId === 'c1'),
    'the start of c1, live',
  )
  expect(await remote.cancelToolCall('c1', { reason: 'too slow' })).toBe(true)
  await owner.agent.whenIdle()
  await owner.agent.session.flush()
  expect(aborted).toEqual(['c1'])
  const events = await committedEvents(db.pool, session)
  const results = events.flatMap((e) => (e.type === 'tool/result' ? [e.data.result] : []))
  expect(results.map((r) => [r.toolCallId, r.isError === true, r.code])).toEqual([
    ['c1', true, 'CANCELLED'],
    ['c2', false, undefined],
  ])
  expect(JSON.stringify(results[0])).toContain('too slow')
  expect(events.at(-1)).toMatchObject({ type: 'turn/end', data: { reason: { kind: 'completed' } } })
  await until(() => seen.some((e) => e.type === 'agent/status' && e.status === 'idle'), 'idle, live')
  // The follower saw the lifecycle of both calls as the owner published it (R72).
  const lifecycle = seen.flatMap((e) =>
    e.type === 'agent/tool/start' || e.type === 'agent/tool/end' ? [{ ...e, agentId: undefined }] : [],
  )
  expect(lifecycle).toEqual([
    { type: 'agent/tool/start', agentId: undefined, turn: 1, step: 1, callId: 'c1', index: 0, name: 'slow' },
    {
      type: 'agent/tool/end',
      agentId: undefined,
      turn: 1,
      step: 1,
      callId: 'c1',
      index: 0,
      isError: true,
      code: 'CANCELLED',
    },
    { type: 'agent/tool/start', agentId: undefined, turn: 1, step: 1, callId: 'c2', index: 1, name: 'quick' },
    { type: 'agent/tool/end', agentId: undefined, turn: 1, step: 1, callId: 'c2', index: 1, isError: false },
  ])
  expect(seen.some((e) => e.type === 'remote/events-lost')).toBe(false)
  // A call that settled is not running: a second cancel is false, as the local call returns.
  expect(await remote.cancelToolCall('c1')).toBe(false)
  expect(owner.failures).toEqual([])
  following.unsubscribe()
  publishing.unsubscribe()
  await owner.release()
  await client.close()
})

it('R71: a cancel of an id that is not running resolves false, settles refused under its request, and never harms the owner', async () => {
  const session = 'unknown-call-not-cancelled'
  const client = connectSessions(db.pool, { pollMs: 100 })
  const remote = client.session(session)
  const { tools: more } = tools()
  const owner = await approvalOwner(db.pool, session, [{ toolCalls: [call('c1', 'slow')] }, 'done'], more)
  // Nothing runs yet: any id is false.
  expect(await remote.cancelToolCall('c1')).toBe(false)
  const started = firstValueFrom(owner.agent.events$.pipe(filter((e) => e.type === 'agent/tool/start')))
  await remote.followup('go')
  await started
  expect(await remote.cancelToolCall('no-such-call')).toBe(false)
  // The owner is as it was: c1 still runs, nothing failed.
  expect(owner.agent.status).toBe('running')
  expect(owner.failures).toEqual([])
  const settled = (await journal(db.pool, session)).filter((row) => row.op === 'settle')
  expect(settled.map((row) => row.record.outcome)).toEqual(
    Array(2).fill({ kind: 'refused', error: { name: 'ToolCallNotRunning', message: expect.any(String) } }),
  )
  expect(await remote.cancelToolCall('c1')).toBe(true)
  await owner.agent.whenIdle()
  expect(owner.failures).toEqual([])
  await owner.release()
  await client.close()
})

it('R71, R62: a remote cancel of a call that waits for approval is true: it is decided, never runs, and the turn goes on', async () => {
  const session = 'waiting-call-cancelled'
  const client = connectSessions(db.pool, { pollMs: 100 })
  const remote = client.session(session)
  const owner = await approvalOwner(db.pool, session, [{ toolCalls: [callShell('c1', 'rm -rf /')] }, 'ok'])
  await remote.followup('go')
  await until(() => owner.agent.status === 'paused', 'the pause')
  expect(await remote.cancelToolCall('c1', { reason: 'changed my mind' })).toBe(true)
  await owner.agent.whenIdle()
  await owner.agent.session.flush()
  const events = await committedEvents(db.pool, session)
  expect(events.find((e) => e.type === 'tool/result')?.data).toMatchObject({
    result: { toolCallId: 'c1', isError: true, code: 'CANCELLED' },
  })
  expect(events.at(-1)).toMatchObject({ type: 'turn/end', data: { reason: { kind: 'completed' } } })
  expect(owner.ran).toEqual([])
  // Decided: a decision on it now is refused.
  await expect(remote.approve('c1')).rejects.toThrow(/no approval is pending/)
  expect(owner.failures).toEqual([])
  await owner.release()
  await client.close()
})
