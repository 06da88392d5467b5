/**
 * Decisions made inside a delivery (R62–R64): a subscriber's call waits in the trampoline until
 * the outputs being delivered are out, so the façade must count what already waits there. A call
 * that a waiting decision, send with `onApproval: 'deny'`, cancel, interrupting send or dispose
 * will decide or end is not pending any more: deciding it throws `ApprovalNotPendingError`, as it
 * does at top level.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { type Agent, ApprovalNotPendingError, defineTool } from '../../src/index.js'
import { label } from '../../src/testing.js'
import { run } from '../support/agents.js'

const gated = (ran: string[]) =>
  defineTool({
    name: 'shell',
    description: 'Runs a command.',
    parameters: z.object({}),
    needsApproval: true,
    execute: (_args, ctx) => {
      ran.push(`${ctx.turn}.${ctx.step}`)
      return 'ran'
    },
  })
const oneCall = [{ toolCalls: [{ id: 'c1', name: 'shell', arguments: '{}' }] }, 'done']

/** Calls `react(agent, callId)` from the subscriber of the first `agent/approval/requested`. */
const onRequested = (agent: Agent, react: (agent: Agent, callId: string) => void) => {
  const thrown: unknown[] = []
  let done = false
  agent.events$.subscribe((event) => {
    if (event.type !== 'agent/approval/requested' || done) return
    done = true
    try {
      react(agent, event.callId)
    } catch (error) {
      thrown.push(error)
    }
  })
  return thrown
}

describe('R62: decisions made from a subscriber count before they are applied', () => {
  it('R62: a second decision of the same call in one delivery throws; the first one stands', async () => {
    const ran: string[] = []
    const { agent, durable } = run(oneCall, { tools: [gated(ran)] })
    const thrown = onRequested(agent, (a, id) => {
      a.deny(id, { reason: 'first' })
      a.approve(id)
    })
    agent.followup('go')
    await agent.whenIdle()
    expect(thrown).toStrictEqual([expect.any(ApprovalNotPendingError)])
    expect(ran).toStrictEqual([])
    expect(durable.filter((e) => e.type === 'approval/decision').map(label)).toStrictEqual([
      'approval/decision(denied,first)',
    ])
  })

  it("R62/R63: approve after a send with onApproval 'deny' in one delivery throws; the send's denial stands", async () => {
    const ran: string[] = []
    const { agent, durable } = run([...oneCall, 'next'], { tools: [gated(ran)] })
    const thrown = onRequested(agent, (a, id) => {
      a.followup('do something else', { onApproval: 'deny' })
      a.approve(id)
    })
    agent.followup('go')
    await agent.whenIdle()
    expect(thrown).toStrictEqual([expect.any(ApprovalNotPendingError)])
    expect(ran).toStrictEqual([])
    expect(durable.filter((e) => e.type === 'approval/decision').map(label)).toStrictEqual([
      'approval/decision(denied,do something else)',
    ])
  })

  it.each([
    ['cancel()', (a: Agent) => a.cancel({ kind: 'user' })],
    ["a followup with ifBusy 'interrupt'", (a: Agent) => void a.followup('now', { ifBusy: 'interrupt' })],
    ['dispose()', (a: Agent) => void a.dispose()],
  ])('R62/R64: approve after %s in one delivery throws; nothing runs', async (_name, end) => {
    const ran: string[] = []
    const { agent, durable } = run([...oneCall, 'next'], { tools: [gated(ran)] })
    const thrown = onRequested(agent, (a, id) => {
      end(a)
      a.approve(id)
    })
    agent.followup('go')
    await agent.whenIdle()
    expect(thrown).toStrictEqual([expect.any(ApprovalNotPendingError)])
    expect(ran).toStrictEqual([])
    expect(durable.some((e) => e.type === 'approval/decision')).toBe(false)
    await agent.dispose()
  })

  it('R62: a decision from a subscriber is applied once the delivery is out, and runs the call', async () => {
    const ran: string[] = []
    const { agent, log } = run(oneCall, { tools: [gated(ran)] })
    const thrown = onRequested(agent, (a, id) => a.approve(id))
    agent.followup('go')
    await agent.whenIdle()
    expect(thrown).toStrictEqual([])
    expect(ran).toStrictEqual(['1.1'])
    expect(log.slice(log.indexOf('approval/request(shell)'), log.indexOf('tool/call(shell)'))).toStrictEqual([
      'approval/request(shell)',
      'approval?(shell)',
      'paused',
      'approval/decision(approved)',
      'running',
    ])
  })
})
