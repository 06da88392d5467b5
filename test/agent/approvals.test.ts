/**
 * Tool approvals through the public API (R61–R64, R66): a call that needs approval pauses the
 * turn; a decision, a send with `onApproval: 'deny'`, a timeout or a cancel is what ends the
 * pause, and nothing but an `approved` decision runs the call (V9).
 */
import { filter, firstValueFrom, VirtualAction, VirtualTimeScheduler } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { Agent } from '../../src/index.js'
import { ApprovalNotPendingError, defineTool, InvalidInputError } from '../../src/index.js'
import { label } from '../../src/testing.js'
import { run } from '../support/agents.js'

const shell = (needsApproval: boolean | ((args: { cmd: string }) => unknown) = true) => {
  const ran: string[] = []
  const tool = defineTool({
    name: 'shell',
    description: 'Runs a command.',
    parameters: z.object({ cmd: z.string() }),
    needsApproval: needsApproval as boolean,
    execute: ({ cmd }) => {
      ran.push(cmd)
      return `ran ${cmd}`
    },
  })
  return { tool, ran }
}

const echo = defineTool({
  name: 'echo',
  description: 'Echoes.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
})

const call = (id: string, cmd: string) => ({ id, name: 'shell', arguments: JSON.stringify({ cmd }) })

const paused = (agent: Agent) => firstValueFrom(agent.approvals$.pipe(filter((list) => list.length > 0)))

describe('R61: a call that needs approval pauses the turn', () => {
  it('R61: approval/request after the assistant message, status paused, approvals listed, nothing runs', async () => {
    const { tool, ran } = shell()
    const { agent, durable, model } = run([{ toolCalls: [call('c1', 'ls')] }, 'done'], { tools: [tool] })
    agent.followup('go')
    const list = await paused(agent)
    expect(agent.status).toBe('paused')
    expect(list).toEqual([
      expect.objectContaining({ turn: 1, step: 1, callId: 'c1', name: 'shell', arguments: '{"cmd":"ls"}' }),
    ])
    expect(list[0]?.requestedSeq).toBe(durable.find((e) => e.type === 'approval/request')?.seq)
    expect(Object.isFrozen(list)).toBe(true)
    expect(ran).toEqual([])
    expect(model.requests).toHaveLength(1)
    expect(agent.acceptsNextStep).toBe(true)
    const types = durable.map((e) => e.type)
    expect(types.slice(types.indexOf('assistant/message'))).toEqual(['assistant/message', 'approval/request'])
    await agent.dispose()
  })

  it('R62: approve runs the call, the step goes on, and the turn completes', async () => {
    const { tool, ran } = shell()
    const { agent, durable, live } = run([{ toolCalls: [call('c1', 'ls')] }, 'done'], { tools: [tool] })
    agent.followup('go')
    await paused(agent)
    agent.approve('c1')
    await agent.whenIdle()
    expect(ran).toEqual(['ls'])
    const labels = durable.map(label)
    expect(labels.slice(labels.indexOf('approval/request(shell)'))).toEqual([
      'approval/request(shell)',
      'approval/decision(approved)',
      'tool/call(shell)',
      'tool/result(call-1)'.replace('call-1', 'c1'),
      'step/end(1.1)',
      'step/start(1.2)',
      'assistant(done)',
      'step/end(1.2)',
      'turn/end(1,completed)',
    ])
    const statuses = live.flatMap((e) => (e.type === 'agent/status' ? [e.status] : []))
    expect(statuses).toEqual(['running', 'paused', 'running', 'idle'])
    expect(agent.approvals).toEqual([])
  })

  it('R62: deny gives a DENIED result with the reason, the call never runs', async () => {
    const { tool, ran } = shell()
    const { agent, durable, model } = run([{ toolCalls: [call('c1', 'rm -rf /')] }, 'ok'], { tools: [tool] })
    agent.followup('go')
    await paused(agent)
    agent.deny('c1', { reason: 'too dangerous' })
    await agent.whenIdle()
    expect(ran).toEqual([])
    const result = durable.find((e) => e.type === 'tool/result')
    expect(result?.data).toMatchObject({ result: { code: 'DENIED', isError: true } })
    expect(JSON.stringify(result)).toContain('too dangerous')
    expect(durable.find((e) => e.type === 'approval/decision')?.data).toEqual({
      turn: 1,
      step: 1,
      callId: 'c1',
      index: 0,
      decision: 'denied',
      reason: 'too dangerous',
      source: { kind: 'user' },
    })
    expect(model.requests).toHaveLength(2)
  })

  it('R61: calls that need no approval run meanwhile; results are recorded in model order', async () => {
    const { tool, ran } = shell()
    const { agent, durable } = run(
      [{ toolCalls: [call('c1', 'ls'), { id: 'c2', name: 'echo', arguments: '{"text":"hi"}' }] }, 'done'],
      { tools: [tool, echo] },
    )
    agent.followup('go')
    await paused(agent)
    expect(agent.approvals.map((a) => a.callId)).toEqual(['c1'])
    agent.approve('c1')
    await agent.whenIdle()
    expect(ran).toEqual(['ls'])
    const results = durable.flatMap((e) => (e.type === 'tool/result' ? [e.data.result.toolCallId] : []))
    expect(results).toEqual(['c1', 'c2'])
  })

  it('R61: a predicate decides per call; one that throws counts as needing approval and is reported', async () => {
    const { tool, ran } = shell(({ cmd }) => {
      if (cmd === 'boom') throw new Error('predicate broke')
      return cmd.startsWith('rm')
    })
    const { agent, live } = run(
      [{ toolCalls: [call('c1', 'ls'), call('c2', 'rm x'), call('c3', 'boom')] }, 'done'],
      { tools: [tool] },
    )
    agent.followup('go')
    const list = await paused(agent)
    expect(list.map((a) => a.callId)).toEqual(['c2', 'c3'])
    expect(live.filter((e) => e.type === 'agent/error')).toHaveLength(1)
    agent.deny('c2')
    agent.deny('c3')
    await agent.whenIdle()
    expect(ran).toEqual(['ls'])
  })

  it('R62: deciding an id that is not pending throws ApprovalNotPendingError and changes nothing', async () => {
    const { tool } = shell()
    const { agent, durable } = run([{ toolCalls: [call('c1', 'ls')] }, 'done'], { tools: [tool] })
    expect(() => agent.approve('c1')).toThrow(ApprovalNotPendingError)
    agent.followup('go')
    await paused(agent)
    const before = durable.length
    expect(() => agent.approve('nope')).toThrow(ApprovalNotPendingError)
    expect(() => agent.deny('c1', { reason: 42 as unknown as string })).toThrow(InvalidInputError)
    expect(() => agent.approve('c1', { reasn: 'x' } as never)).toThrow(InvalidInputError)
    // Reading a hostile reason to name the issue must not escape as a raw TypeError either.
    const revoked = Proxy.revocable({}, {})
    revoked.revoke()
    expect(() => agent.deny('c1', { reason: revoked.proxy } as never)).toThrow(InvalidInputError)
    expect(() => agent.raiseBudget({ maxRequests: revoked.proxy } as never)).toThrow(InvalidInputError)
    expect(durable.length).toBe(before)
    agent.approve('c1')
    expect(() => agent.approve('c1')).toThrow(ApprovalNotPendingError)
    await agent.whenIdle()
  })
})

describe('R63: sends while paused', () => {
  it("R63: a plain steer is held; with onApproval: 'deny' the DENIED result and the steer reach one request", async () => {
    const { tool, ran } = shell()
    const { agent, durable, model } = run([{ toolCalls: [call('c1', 'ls')] }, 'ok'], { tools: [tool] })
    agent.followup('go')
    await paused(agent)
    agent.steer('hold on')
    expect(agent.status).toBe('paused')
    const id = agent.steer('use dir instead', { onApproval: 'deny' })
    await agent.whenIdle()
    expect(ran).toEqual([])
    const decision = durable.find((e) => e.type === 'approval/decision')
    expect(decision?.data).toMatchObject({ decision: 'denied', reason: 'use dir instead', byMessage: id })
    expect(model.requests).toHaveLength(2)
    const last = model.requests[1]?.messages.slice(-3).map((m) => m.role)
    expect(last).toEqual(['tool', 'user', 'user'])
    expect(await agent.outcome(id)).toMatchObject({ kind: 'delivered' })
  })

  it("R63: a followup with onApproval: 'deny' denies and queues", async () => {
    const { tool } = shell()
    const { agent, model } = run([{ toolCalls: [call('c1', 'ls')] }, 'ok', 'next'], { tools: [tool] })
    agent.followup('go')
    await paused(agent)
    agent.followup('do something else', { onApproval: 'deny' })
    await agent.whenIdle()
    expect(model.requests).toHaveLength(3)
    expect(agent.session.events.filter((e) => e.type === 'turn/start')).toHaveLength(2)
  })

  it('R63: onApproval with a typo is refused with InvalidInputError', () => {
    const { agent } = run([])
    expect(() => agent.steer('x', { onApproval: 'deni' as never })).toThrow(InvalidInputError)
  })
})

describe('R64: cancel and dispose while paused', () => {
  it('R64: cancel ends the turn aborted, each pending call gets ABORTED and no decision is written', async () => {
    const { tool, ran } = shell()
    const { agent, durable } = run([{ toolCalls: [call('c1', 'ls')] }], { tools: [tool] })
    agent.followup('go')
    await paused(agent)
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
    expect(ran).toEqual([])
    expect(durable.some((e) => e.type === 'approval/decision')).toBe(false)
    expect(durable.find((e) => e.type === 'tool/result')?.data).toMatchObject({ result: { code: 'ABORTED' } })
    expect(durable.at(-1)?.data).toEqual({ turn: 1, reason: { kind: 'aborted' } })
    expect(agent.status).toBe('idle')
  })

  it('R64: dispose of a paused agent writes nothing for the pause', async () => {
    const { tool } = shell()
    const { agent, durable } = run([{ toolCalls: [call('c1', 'ls')] }], { tools: [tool] })
    agent.followup('go')
    await paused(agent)
    const before = durable.map(label)
    await agent.dispose()
    expect(durable.map(label)).toEqual(before)
  })
})

describe('R66: approval timeouts', () => {
  it('R66: a pending call is denied with reason timeout, source system, on the agent scheduler', async () => {
    const scheduler = new VirtualTimeScheduler()
    const { tool, ran } = shell()
    const { agent, durable } = run([{ toolCalls: [call('c1', 'ls')] }, 'ok'], {
      tools: [tool],
      scheduler,
      approvalTimeoutMs: 5_000,
    })
    agent.followup('go')
    scheduler.flush()
    expect(durable.find((e) => e.type === 'approval/decision')?.data).toMatchObject({
      decision: 'denied',
      reason: 'timeout',
      source: { kind: 'system' },
    })
    expect(ran).toEqual([])
    expect(agent.status).toBe('idle')
  })

  it('R66: a decided call leaves no timer behind once its turn ends (nothing holds the process)', () => {
    // flush() runs what is due within 10 frames: the agent's own moves, not the 5 s timer.
    const scheduler = new VirtualTimeScheduler(VirtualAction, 10)
    const { tool, ran } = shell()
    const { agent } = run([{ toolCalls: [call('c1', 'ls')] }, 'ok'], {
      tools: [tool],
      scheduler,
      approvalTimeoutMs: 5_000,
    })
    agent.followup('go')
    scheduler.flush()
    expect(agent.approvals).toHaveLength(1)
    agent.approve('c1')
    scheduler.flush()
    expect(ran).toEqual(['ls'])
    expect(agent.status).toBe('idle')
    expect(scheduler.actions.filter((a) => !a.closed)).toEqual([])
  })

  it('R61, R66: a predicate that never answers counts as needing approval once approvalTimeoutMs passes, and is reported', () => {
    // Runs to frame 700: past the predicate's 500 ms, before the approval's own 500 ms run out.
    const scheduler = new VirtualTimeScheduler(VirtualAction, 700)
    const { tool, ran } = shell(() => new Promise<boolean>(() => {}))
    const { agent, live } = run([{ toolCalls: [call('c1', 'ls')] }, 'ok'], {
      tools: [tool],
      scheduler,
      approvalTimeoutMs: 500,
    })
    agent.followup('go')
    scheduler.flush()
    expect(agent.approvals.map((a) => a.callId)).toEqual(['c1'])
    const errors = live.flatMap((e) => (e.type === 'agent/error' ? [String(e.error)] : []))
    expect(errors).toEqual([expect.stringMatching(/needsApproval of "shell" did not answer within 500 ms/)])
    agent.approve('c1')
    scheduler.flush()
    expect(ran).toEqual(['ls'])
    expect(agent.status).toBe('idle')
  })
})
