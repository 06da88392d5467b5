/**
 * Budgets and step limits through the public API (R80, R81): a budget passed by a request pauses
 * the turn at its step boundary (until `raiseBudget()` or `cancel()`) or ends it; a followup's
 * `maxSteps` ends its turn `max-steps`.
 */
import { concat, filter, firstValueFrom, from, throwError } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  type Agent,
  createAgent,
  defineTool,
  InvalidInputError,
  type ModelEvent,
  type ModelRequest,
  type SessionEvent,
} from '../../src/index.js'
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

const ends = (events: readonly SessionEvent[]) =>
  events.flatMap((e) => (e.type === 'turn/end' ? [e.data.reason.kind] : []))
const tokens = (agent: Agent) => agent.usage.inputTokens + agent.usage.outputTokens
const reply = (text: string, usage?: { inputTokens: number; outputTokens: number }): ModelEvent[] => [
  { type: 'text', text },
  usage ? { type: 'finish', reason: 'stop', usage } : { type: 'finish', reason: 'stop' },
]

describe('R80: every request counts, and none starts once the budget is spent', () => {
  it('R73/R80: a model that reports no usage: its estimated tokens count, so the budget trips after one request', async () => {
    const silent = { toolCalls: [{ id: 'c', name: 'look', arguments: '{}' }], text: 'x'.repeat(400) }
    const { agent, durable, model } = run(Array(7).fill(silent), {
      tools: [look],
      budget: { maxTotalTokens: 50, onExceed: 'stop' },
    })
    agent.followup('go')
    await agent.whenIdle()
    expect(model.requests).toHaveLength(1)
    expect(agent.usage).toMatchObject({ requests: 1, estimatedRequests: 1 })
    expect(tokens(agent)).toBeGreaterThan(50)
    expect(ends(durable)).toEqual(['budget'])
  })

  it("R80: maxRequests 1 with 'pause' and single-step turns: the second turn pauses before its request, at step 0; raiseBudget runs it as step 1", async () => {
    const { agent, durable, model } = run(['one', 'two', 'three'], {
      budget: { maxRequests: 1, onExceed: 'pause' },
    })
    agent.followup('a')
    agent.followup('b')
    agent.followup('c')
    const exceeded = await pausedOnBudget(agent)
    expect(exceeded).toMatchObject({ turn: 2, step: 0, usage: { requests: 1 } })
    expect(agent.status).toBe('paused')
    expect(model.requests).toHaveLength(1)
    expect(durable.slice(-3).map((e) => e.type)).toEqual(['turn/start', 'user/message', 'budget/pause'])
    agent.raiseBudget({ maxRequests: 2 })
    await pausedOnBudget(agent)
    expect(model.requests.map((r) => [r.turn, r.step])).toEqual([
      [1, 1],
      [2, 1],
    ])
    expect(ends(durable)).toEqual(['completed', 'completed'])
  })

  it("R80: maxRequests 1 with 'stop': each later turn ends budget without a request", async () => {
    const { agent, durable, model } = run(['one', 'two', 'three'], {
      budget: { maxRequests: 1, onExceed: 'stop' },
    })
    agent.followup('a')
    agent.followup('b')
    agent.followup('c')
    await agent.whenIdle()
    expect(model.requests).toHaveLength(1)
    expect(ends(durable)).toEqual(['completed', 'budget', 'budget'])
    expect(durable.filter((e) => e.type === 'step/start')).toHaveLength(1)
  })

  it('R65/R80: a pause before the first request survives a reopen; raiseBudget then runs step 1', async () => {
    const first = run(['one', 'two'], { budget: { maxRequests: 1, onExceed: 'pause' } })
    first.agent.followup('a')
    first.agent.followup('b')
    await pausedOnBudget(first.agent)
    await first.agent.dispose()
    const history = first.agent.session.events
    const requests: ModelRequest[] = []
    const agent = createAgent({
      model: (request) => {
        requests.push(request)
        return reply('two')
      },
      history,
      budget: { maxRequests: 1, onExceed: 'pause' },
    })
    expect(agent.status).toBe('paused')
    expect(agent.usage).toEqual(first.agent.usage)
    agent.raiseBudget({ maxRequests: 2 })
    await agent.whenIdle()
    expect(requests.map((r) => [r.turn, r.step])).toEqual([[2, 1]])
    expect(ends(agent.session.events)).toEqual(['completed', 'completed'])
  })
})

describe('R80: the same budget live and after a reopen', () => {
  /** Request 1 reports its usage (100 tokens), streams, then fails; later ones report 60. */
  const failingFirst = () => {
    let n = 0
    return (_: ModelRequest) =>
      ++n === 1
        ? concat(
            from<ModelEvent[]>([
              { type: 'usage', usage: { inputTokens: 90, outputTokens: 10 } },
              { type: 'text', text: 'par' },
            ]),
            throwError(() => new Error('connection reset')),
          )
        : reply('ok', { inputTokens: 30, outputTokens: 30 })
  }
  const budget = { maxTotalTokens: 150, onExceed: 'stop' } as const

  it("R73/R80: a failed request's reported usage on step/end counts live and after a reopen alike", async () => {
    const live = createAgent({ model: failingFirst(), budget })
    live.events$.subscribe() // the agent/error of the failed request is expected
    live.followup('a')
    live.followup('b')
    await live.whenIdle()
    expect(ends(live.session.events)).toEqual(['error', 'budget'])

    const before = createAgent({ model: failingFirst(), budget })
    before.events$.subscribe()
    before.followup('a')
    await before.whenIdle()
    await before.dispose()
    const reopened = createAgent({
      model: () => reply('ok', { inputTokens: 30, outputTokens: 30 }),
      history: before.session.events,
      budget,
    })
    expect(reopened.usage).toEqual(before.usage)
    reopened.followup('b')
    await reopened.whenIdle()
    expect(ends(reopened.session.events)).toEqual(['error', 'budget'])
    expect(reopened.usage).toEqual(live.usage)
  })

  it('R73/R80: estimated usage counts live as after a reopen: a session that paused live reopens paused, not one that never did', async () => {
    const text = 'x'.repeat(80) // 20 estimated output tokens a request: the third turn may not start
    const options = { budget: { maxTotalTokens: 30, onExceed: 'pause' as const } }
    const live = run([text, text, text], options)
    live.agent.followup('a')
    live.agent.followup('b')
    live.agent.followup('c')
    const exceeded = await pausedOnBudget(live.agent)
    expect(exceeded).toMatchObject({ turn: 3, step: 0 })
    expect(live.agent.usage.estimatedRequests).toBe(2)
    await live.agent.dispose()
    const reopened = createAgent({ model: () => reply(text), history: live.agent.session.events, ...options })
    expect(reopened.status).toBe('paused')
    expect(reopened.usage).toEqual(live.agent.usage)

    const under = run([text], { budget: { maxTotalTokens: 1_000, onExceed: 'pause' } })
    under.agent.followup('a')
    await under.agent.whenIdle()
    const again = createAgent({
      model: () => reply(text),
      history: under.agent.session.events,
      budget: { maxTotalTokens: 1_000, onExceed: 'pause' },
    })
    expect(again.status).toBe('idle')
    expect(again.usage).toEqual(under.agent.usage)
  })
})

describe("R80: compactions by the agent's model count against the budget", () => {
  /** A turn's request reports 100 tokens; a summary request (step 0) reports 5,100. */
  const billed = (requests: ModelRequest[]) => (request: ModelRequest) => {
    requests.push(request)
    return request.step === 0
      ? reply('summary', { inputTokens: 5_000, outputTokens: 100 })
      : reply('ok', { inputTokens: 50, outputTokens: 50 })
  }

  it("R74/R80: a 6,000-token 'stop' budget with automatic compaction: once spent, no turn and no compaction makes a request", async () => {
    const requests: ModelRequest[] = []
    const agent = createAgent({
      model: billed(requests),
      compaction: { whenInputTokensExceed: 10, keepLastTurns: 0 },
      budget: { maxTotalTokens: 6_000, onExceed: 'stop' },
    })
    for (const p of ['a', 'b', 'c', 'd']) agent.followup(p)
    await agent.whenIdle()
    // Turn 1 (100), its compaction (5,100), turn 2 (100): 5,300 < 6,000, so its compaction runs
    // (10,400); from then on nothing starts.
    expect(requests.map((r) => [r.turn, r.step])).toEqual([
      [1, 1],
      [1, 0],
      [2, 1],
      [2, 0],
    ])
    expect(tokens(agent)).toBe(10_400)
    expect(ends(agent.session.events)).toEqual(['completed', 'completed', 'budget', 'budget'])
    expect(await agent.compact()).toEqual({ kind: 'skipped', reason: 'budget' })
    expect(requests).toHaveLength(4)
  })

  it("R73/R74: a summary by the agent's own model that reports no usage counts as one estimated request", async () => {
    const agent = createAgent({
      model: (request) =>
        request.step === 0 ? reply('summary') : reply('ok', { inputTokens: 5, outputTokens: 5 }),
    })
    agent.followup('a')
    agent.followup('b')
    await agent.whenIdle()
    const before = agent.usage
    expect(await agent.compact({ keepLastTurns: 1 })).toMatchObject({ kind: 'compacted' })
    expect(agent.usage.requests).toBe(before.requests + 1)
    expect(agent.usage.estimatedRequests).toBe(before.estimatedRequests + 1)
    expect(tokens(agent)).toBeGreaterThan(before.inputTokens + before.outputTokens)
  })

  it("R74/R80: an app's summariser is no request of the model: compact() runs with the budget spent", async () => {
    const { agent } = run(['one'], { budget: { maxRequests: 1, onExceed: 'stop' } })
    agent.followup('a')
    agent.followup('b')
    await agent.whenIdle()
    const result = await agent.compact({ keepLastTurns: 0, summarize: () => 'by the app' })
    expect(result).toMatchObject({ kind: 'compacted' })
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
