/**
 * Call ids are the model's to choose, and it may repeat one in a step or send an empty one
 * (the AI SDK adapter passes any `toolCallId` through). Approvals, results and reopened pauses
 * name a call by its place in the step (its key, `"turn.step.index"`), so every call is asked
 * about, can be decided and has exactly one result (R62, R64, R65, R71, V9).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { filter, firstValueFrom } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  type Agent,
  ApprovalNotPendingError,
  createAgent,
  defineTool,
  fileStore,
  InvalidInputError,
  type SessionEvent,
} from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'
import { run } from '../support/agents.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const sessionPath = () => {
  const dir = mkdtempSync(join(tmpdir(), 'steerable-ids-'))
  dirs.push(dir)
  return join(dir, 'session.jsonl')
}

const shell = (ran: string[]) =>
  defineTool({
    name: 'shell',
    description: 'Runs a command.',
    parameters: z.object({ cmd: z.string() }),
    needsApproval: true,
    execute: ({ cmd }) => {
      ran.push(cmd)
      return `ran ${cmd}`
    },
  })

const call = (id: string, cmd: string) => ({ id, name: 'shell', arguments: JSON.stringify({ cmd }) })
const twins = [call('c1', 'rm /tmp/a'), call('c1', 'rm /')]

const paused = (agent: Agent) => firstValueFrom(agent.approvals$.pipe(filter((list) => list.length > 0)))

const results = (events: readonly SessionEvent[]) =>
  events.flatMap((e) => (e.type === 'tool/result' ? [[e.data.result.toolCallId, e.data.result.code]] : []))

describe('V9, R65: two calls of a step share an id', () => {
  it('V9/R65: each is listed with its own key; approving the first and reopening leaves the second pending, and it gets its own result', async () => {
    const path = sessionPath()
    const ranBefore: string[] = []
    const first = createAgent({
      model: scriptedModel([{ toolCalls: twins }]),
      tools: [shell(ranBefore)],
      store: fileStore(path),
    })
    first.followup('go')
    const list = await paused(first)
    expect(list.map((a) => [a.callId, a.key, a.index, a.arguments])).toEqual([
      ['c1', '1.1.0', 0, '{"cmd":"rm /tmp/a"}'],
      ['c1', '1.1.1', 1, '{"cmd":"rm /"}'],
    ])
    first.approve('1.1.0')
    expect(first.approvals.map((a) => a.key)).toEqual(['1.1.1'])
    await first.session.flush()
    await first.dispose()
    expect(ranBefore).toEqual(['rm /tmp/a'])

    const ranAfter: string[] = []
    const second = createAgent({
      model: scriptedModel(['done']),
      tools: [shell(ranAfter)],
      store: fileStore(path),
    })
    expect(second.status).toBe('paused')
    expect(second.approvals.map((a) => [a.key, a.arguments])).toEqual([['1.1.1', '{"cmd":"rm /"}']])
    // The one pending call has the id: it names it unambiguously.
    second.deny('c1', { reason: 'never' })
    await second.whenIdle()
    expect(ranAfter).toEqual([])
    const events = second.session.events
    expect(results(events)).toEqual([
      ['c1', undefined],
      ['c1', 'DENIED'],
    ])
    const decisions = events.flatMap((e) =>
      e.type === 'approval/decision' ? [[e.data.index, e.data.decision]] : [],
    )
    expect(decisions).toEqual([
      [0, 'approved'],
      [1, 'denied'],
    ])
    expect(events.filter((e) => e.type === 'turn/end').map((e) => e.data.reason.kind)).toEqual(['completed'])
    await second.dispose()
  })

  it('R62: an id two pending calls share is InvalidInputError listing their keys, and decides nothing', async () => {
    const ran: string[] = []
    const { agent, durable } = run([{ toolCalls: twins }, 'done'], { tools: [shell(ran)] })
    agent.followup('go')
    await paused(agent)
    const before = durable.length
    for (const decide of [() => agent.approve('c1'), () => agent.deny('c1')])
      expect(decide).toThrow(/"c1" names 2 calls; pass the key of one of them: 1\.1\.0, 1\.1\.1/)
    expect(() => agent.approve('c1')).toThrow(InvalidInputError)
    expect(() => agent.cancelToolCall('c1')).toThrow(/1\.1\.0, 1\.1\.1/)
    expect(durable.length).toBe(before)
    expect(agent.approvals).toHaveLength(2)
    agent.deny('1.1.1')
    agent.approve('1.1.0')
    await agent.whenIdle()
    expect(ran).toEqual(['rm /tmp/a'])
    expect(results(agent.session.events)).toEqual([
      ['c1', undefined],
      ['c1', 'DENIED'],
    ])
  })

  it('R62: a key of a call that is not pending is ApprovalNotPendingError', async () => {
    const { agent } = run([{ toolCalls: twins }, 'done'], { tools: [shell([])] })
    agent.followup('go')
    await paused(agent)
    agent.approve('1.1.0')
    expect(() => agent.approve('1.1.0')).toThrow(ApprovalNotPendingError)
    expect(() => agent.deny('1.1.7')).toThrow(ApprovalNotPendingError)
    agent.deny('1.1.1')
    await agent.whenIdle()
  })
})

describe('R62, R71: a call whose id is empty', () => {
  const emptyId = async () => {
    const ran: string[] = []
    const { agent } = run([{ toolCalls: [call('', 'ls')] }, 'done'], { tools: [shell(ran)] })
    agent.followup('go')
    const [pending] = await paused(agent)
    expect(pending).toMatchObject({ callId: '', key: '1.1.0' })
    return { agent, ran }
  }

  it.each([
    ['approve', (agent: Agent) => agent.approve(''), undefined],
    ['deny', (agent: Agent) => agent.deny(''), 'DENIED'],
    ['cancelToolCall', (agent: Agent) => expect(agent.cancelToolCall('')).toBe(true), 'CANCELLED'],
    ['approve by key', (agent: Agent) => agent.approve('1.1.0'), undefined],
  ])('R62/R71: %s of a pending call with id "" ends the pause', async (_name, decide, code) => {
    const { agent, ran } = await emptyId()
    decide(agent)
    await agent.whenIdle()
    expect(ran).toEqual(code === undefined ? ['ls'] : [])
    expect(results(agent.session.events)).toEqual([['', code]])
    expect(agent.session.events.at(-1)).toMatchObject({
      type: 'turn/end',
      data: { reason: { kind: 'completed' } },
    })
  })
})

type Decider = readonly [string, (agent: Agent) => unknown]
const deciders: readonly Decider[] = [
  ['approve', (agent) => agent.approve('c1')],
  ['deny', (agent) => agent.deny('c1')],
  ['cancelToolCall', (agent) => agent.cancelToolCall('c1')],
]

/** What a decision made after `cancel()` was requested did: it threw, or what it returned. */
const attempt = (decide: () => unknown): unknown => {
  try {
    return decide()
  } catch (error) {
    return error instanceof Error ? error.name : error
  }
}

const refusedAfterCancel = async (
  name: string,
  agent: Agent,
  ran: string[],
  model: { readonly requests: readonly unknown[] },
) => {
  await agent.whenIdle()
  expect(ran).toEqual([])
  expect(model.requests).toHaveLength(1)
  const events = agent.session.events
  expect(events.some((e) => e.type === 'approval/decision')).toBe(false)
  expect(results(events)).toEqual([['c1', 'ABORTED']])
  expect(events.at(-1)).toMatchObject({ type: 'turn/end', data: { reason: { kind: 'aborted' } } })
  return name === 'cancelToolCall' ? false : 'ApprovalNotPendingError'
}

describe('R64, R62: a decision made after cancel() was requested is refused', () => {
  it.each(
    deciders.flatMap(([name, decide]) =>
      (['first', 'second'] as const).map((order) => [name, order, decide] as const),
    ),
  )(
    'R64: %s from a cancel-requested subscriber (%s of two) is refused; the turn ends aborted',
    async (name, order, decide) => {
      const ran: string[] = []
      const { agent, model } = run([{ toolCalls: [call('c1', 'ls')] }, 'done'], { tools: [shell(ran)] })
      const seen: unknown[] = []
      const decider = () => seen.push(attempt(() => decide(agent)))
      const other = () => seen.push(agent.approvals.length)
      const cancelRequested = agent.events$.pipe(filter((e) => e.type === 'agent/cancel-requested'))
      for (const next of order === 'first' ? [decider, other] : [other, decider])
        cancelRequested.subscribe(next)
      agent.followup('go')
      await paused(agent)
      agent.cancel({ kind: 'user' })
      const expected = await refusedAfterCancel(name, agent, ran, model)
      expect(seen).toContain(expected)
    },
  )

  it.each(deciders)(
    'R64: %s after cancel() in the same delivery (a later subscriber of one event) is refused',
    async (name, decide) => {
      const ran: string[] = []
      const { agent, model } = run([{ toolCalls: [call('c1', 'ls')] }, 'done'], { tools: [shell(ran)] })
      const seen: unknown[] = []
      const requested = agent.events$.pipe(filter((e) => e.type === 'agent/approval/requested'))
      requested.subscribe(() => agent.cancel({ kind: 'user' }))
      requested.subscribe(() => seen.push(attempt(() => decide(agent))))
      agent.followup('go')
      seen.push(await refusedAfterCancel(name, agent, ran, model))
      expect(seen[0]).toBe(seen[1])
    },
  )
})

describe('R71: cancelToolCall after cancel()', () => {
  const runningTool = () => {
    const waits = defineTool({
      name: 'wait',
      description: 'Waits until its signal aborts.',
      parameters: z.object({}),
      execute: (_args, ctx) =>
        new Promise<string>((resolve) => ctx.signal.addEventListener('abort', () => resolve('stopped'))),
    })
    return run([{ toolCalls: [{ id: 'w1', name: 'wait', arguments: '{}' }] }, 'done'], { tools: [waits] })
  }

  it('R71: cancelToolCall right after cancel() in the same delivery cancels nothing and returns false', async () => {
    const { agent } = runningTool()
    const returned: boolean[] = []
    agent.events$.pipe(filter((e) => e.type === 'agent/tool/start')).subscribe(() => {
      agent.cancel({ kind: 'user' })
      returned.push(agent.cancelToolCall('w1'))
    })
    agent.followup('go')
    await agent.whenIdle()
    expect(returned).toEqual([false])
    const codes = results(agent.session.events).map(([, code]) => code)
    expect(codes).not.toContain('CANCELLED')
    expect(agent.session.events.at(-1)).toMatchObject({
      type: 'turn/end',
      data: { reason: { kind: 'aborted' } },
    })
  })

  it('R71: cancelToolCall from a cancel-requested subscriber returns false', async () => {
    const { agent } = runningTool()
    const returned: boolean[] = []
    agent.events$.pipe(filter((e) => e.type === 'agent/cancel-requested')).subscribe(() => {
      returned.push(agent.cancelToolCall('w1'))
    })
    agent.events$
      .pipe(filter((e) => e.type === 'agent/tool/start'))
      .subscribe(() => agent.cancel({ kind: 'user' }))
    agent.followup('go')
    await agent.whenIdle()
    expect(returned).toEqual([false])
    expect(results(agent.session.events).map(([, code]) => code)).not.toContain('CANCELLED')
  })
})
