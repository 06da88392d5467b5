/**
 * A paused agent with nothing running holds no pipeline (R61): the driver releases its engine as
 * it does an idle agent's, and the decision builds it again; an approval timer is the driver's,
 * so it does not hold the engine either.
 */
import { filter, firstValueFrom, VirtualAction, VirtualTimeScheduler } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { type Agent, createAgent, defineTool } from '../../src/index.js'
import { extensionsOf } from '../../src/runtime/extensions.js'
import { scriptedModel } from '../../src/testing.js'

const builds = (agent: Agent): number => extensionsOf(agent).engineBuilds
const shell = defineTool({
  name: 'shell',
  description: 'Runs a command.',
  parameters: z.object({}),
  needsApproval: true,
  execute: () => 'ran',
})
const model = () => scriptedModel([{ toolCalls: [{ id: 'c1', name: 'shell', arguments: '{}' }] }, 'done'])
const paused = (agent: Agent) => firstValueFrom(agent.approvals$.pipe(filter((list) => list.length > 0)))

describe('the driver and a paused agent', () => {
  it('R61: paused with nothing running, the engine is released; approve builds it again', async () => {
    const agent = createAgent({ model: model(), tools: [shell] })
    agent.followup('go')
    await paused(agent)
    expect(builds(agent)).toBe(1)
    agent.approve('c1')
    await agent.whenIdle()
    expect(builds(agent)).toBe(2)
    expect(agent.session.events.at(-1)?.data).toEqual({ turn: 1, reason: { kind: 'completed' } })
  })

  it('R66: a pending approval timer does not hold the engine: the driver keeps it, and it fires into a new one', () => {
    // Runs to frame 10: the agent's own moves, not the 5 s limit, until the test advances time.
    const scheduler = new VirtualTimeScheduler(VirtualAction, 10)
    const agent = createAgent({ model: model(), tools: [shell], approvalTimeoutMs: 5_000, scheduler })
    agent.followup('go')
    scheduler.flush()
    expect(agent.approvals).toHaveLength(1)
    expect(builds(agent)).toBe(1)
    scheduler.maxFrames = Number.POSITIVE_INFINITY
    scheduler.flush()
    expect(builds(agent)).toBe(2)
    expect(agent.status).toBe('idle')
    const decision = agent.session.events.find((e) => e.type === 'approval/decision')
    expect(decision?.data).toMatchObject({ decision: 'denied', reason: 'timeout' })
  })
})
