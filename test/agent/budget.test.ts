/**
 * Budgets and step limits through the public API (R80, R81): a budget passed by a request pauses
 * the turn at its step boundary (until `raiseBudget()` or `cancel()`) or ends it; a followup's
 * `maxSteps` ends its turn `max-steps`.
 */
import { filter, firstValueFrom } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { type Agent, defineTool, InvalidInputError } from '../../src/index.js'
import { run } from '../support/agents.js'

const look = defineTool({
  name: 'look',
  description: 'Looks.',
  parameters: z.object({}),
  execute: () => 'seen',
})
const usage = { inputTokens: 60, outputTokens: 40 }
const toolStep = (id: string) => ({ toolCalls: [{ id, name: 'look', arguments: '{}' }], usage })

const pausedOnBudget = (agent: Agent) =>
  firstValueFrom(agent.events$.pipe(filter((e) => e.type === 'agent/budget/exceeded')))

describe('R80: budgets', () => {
  it("R80: 'pause' waits at the step boundary after the request that passed the limit; raiseBudget continues", async () => {
    const { agent, durable, model } = run([toolStep('c1'), toolStep('c2'), 'done'], {
      tools: [look],
      budget: { maxTotalTokens: 150, onExceed: 'pause' },
    })
    agent.followup('go')
    const exceeded = await pausedOnBudget(agent)
    expect(exceeded).toMatchObject({ turn: 1, step: 2, usage: { totalTokens: 200, requests: 2 } })
    expect(agent.status).toBe('paused')
    expect(model.requests).toHaveLength(2)
    // The step's tools ran; the pause is durable, after the step's end.
    const types = durable.map((e) => e.type)
    expect(types.slice(-2)).toEqual(['step/end', 'budget/pause'])
    expect(() => agent.raiseBudget({ maxTotalTokens: 200 })).toThrow(InvalidInputError)
    expect(() => agent.raiseBudget({})).toThrow(InvalidInputError)
    agent.raiseBudget({ maxTotalTokens: 1_000 })
    await agent.whenIdle()
    expect(model.requests).toHaveLength(3)
    expect(durable.at(-1)?.data).toEqual({ turn: 1, reason: { kind: 'completed' } })
  })

  it("R80: 'pause' keeps the inbox editable; cancel ends the paused turn aborted", async () => {
    const { agent, durable } = run([toolStep('c1'), 'never'], {
      tools: [look],
      budget: { maxRequests: 0, onExceed: 'pause' },
    })
    agent.followup('go')
    await pausedOnBudget(agent)
    const queued = agent.followup('later')
    agent.remove(queued)
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
    expect(durable.at(-1)?.data).toEqual({ turn: 1, reason: { kind: 'aborted' } })
    expect(await agent.outcome(queued)).toMatchObject({ kind: 'discarded', reason: 'removed' })
  })

  it("R80: 'stop' ends the turn after the step with turn/end budget; its calls get NOT_RUN_BUDGET", async () => {
    const ran: string[] = []
    const counted = defineTool({ ...look, execute: () => ran.push('look') })
    const { agent, durable } = run([toolStep('c1')], {
      tools: [counted],
      budget: { maxTotalTokens: 10, onExceed: 'stop' },
    })
    agent.followup('go')
    await agent.whenIdle()
    expect(ran).toEqual([])
    expect(durable.find((e) => e.type === 'tool/result')?.data).toMatchObject({
      result: { code: 'NOT_RUN_BUDGET' },
    })
    expect(durable.at(-1)?.data).toEqual({ turn: 1, reason: { kind: 'budget' } })
  })

  it('R80: a budget without limits or with a typo is refused by createAgent; raiseBudget without a budget too', () => {
    expect(() => run([], { budget: { maxTotalTokens: 10, onExceed: 'wait' as never } })).toThrow(
      InvalidInputError,
    )
    expect(() => run([], { budget: { maxTokens: 10, onExceed: 'pause' } as never })).toThrow(
      InvalidInputError,
    )
    const { agent } = run([])
    expect(() => agent.raiseBudget({ maxTotalTokens: 5 })).toThrow(/no budget/)
  })
})

describe('R81: maxSteps', () => {
  it('R81: the turn ends max-steps after n steps; the calls of the last step get NOT_RUN_MAX_STEPS', async () => {
    const { agent, durable, model } = run([toolStep('c1'), toolStep('c2'), 'never'], { tools: [look] })
    agent.followup('go', { maxSteps: 2 })
    await agent.whenIdle()
    expect(model.requests).toHaveLength(2)
    const codes = durable.flatMap((e) => (e.type === 'tool/result' ? [e.data.result.code ?? 'ok'] : []))
    expect(codes).toEqual(['ok', 'NOT_RUN_MAX_STEPS'])
    expect(durable.at(-1)?.data).toEqual({ turn: 1, reason: { kind: 'max-steps' } })
  })

  it('R81: a turn that finishes within its steps completes; the limit holds for that turn only', async () => {
    const { agent, durable } = run([toolStep('c1'), 'done', toolStep('c2'), toolStep('c3'), 'done'], {
      tools: [look],
    })
    agent.followup('first', { maxSteps: 2 })
    agent.followup('second')
    await agent.whenIdle()
    const ends = durable.flatMap((e) => (e.type === 'turn/end' ? [e.data.reason.kind] : []))
    expect(ends).toEqual(['completed', 'completed'])
  })

  it('R81: maxSteps must be an integer >= 1, and only a followup (next-turn, wakeup) takes it', () => {
    const { agent } = run([])
    expect(() => agent.followup('x', { maxSteps: 0 })).toThrow(InvalidInputError)
    expect(() => agent.followup('x', { maxSteps: 1.5 })).toThrow(InvalidInputError)
    expect(() => agent.steer('x', { maxSteps: 2 } as never)).toThrow(InvalidInputError)
    expect(() => agent.send('x', { target: 'next-step', wakeup: true, maxSteps: 2 })).toThrow(
      /maxSteps needs/,
    )
  })
})
