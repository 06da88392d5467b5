/**
 * The first hour (R115–R118) through the public API: `run()`, the default step cap, and failures
 * that are reported by default. Retries with backoff are pinned in virtual time in
 * `marbles/retries.spec.ts`.
 */
import { config } from 'rxjs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import {
  type AgentErrorReport,
  createAgent,
  defineTool,
  InvalidInputError,
  TurnFailedError,
} from '../../src/index.js'
import { type ScriptedReply, scriptedModel } from '../../src/testing.js'
import { deferred, run } from '../support/agents.js'
import { until } from '../support/until.js'

const echo = defineTool({
  name: 'echo',
  description: 'Echoes.',
  parameters: z.object({}),
  execute: () => 'ok',
})
const callEcho: ScriptedReply = { toolCalls: [{ name: 'echo', arguments: '{}' }] }
const usage = { inputTokens: 10, outputTokens: 3 }
const down = () => new Error('connect ECONNREFUSED 127.0.0.1:1')

const failure = async (promise: Promise<unknown>): Promise<TurnFailedError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(TurnFailedError)
  return error as TurnFailedError
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('R115: agent.run(input, options)', () => {
  it('R115: resolves with the id, the turn, its last assistant text, its usage and its reason', async () => {
    const { agent } = run(
      [
        { ...callEcho, usage },
        { text: 'All done.', usage },
        { text: 'Sure.', usage },
      ],
      { tools: [echo] },
    )
    const result = await agent.run('go')
    expect(result).toStrictEqual({
      id: expect.any(String),
      turn: 1,
      text: 'All done.',
      usage: { inputTokens: 20, outputTokens: 6, cachedInputTokens: 0, requests: 2, estimatedRequests: 0 },
      reason: { kind: 'completed' },
    })
    expect(await agent.outcome(result.id)).toMatchObject({ kind: 'delivered', as: 'prompt', turn: 1 })
    const second = await agent.run('again?')
    expect(second).toMatchObject({ turn: 2, text: 'Sure.', usage: { requests: 1 } })
  })

  it('R115: rejects with TurnFailedError {id, turn, reason} when the turn fails', async () => {
    const { agent } = run([{ error: down() }], { onError: false })
    const error = await failure(agent.run('go'))
    expect(error).toMatchObject({ turn: 1, reason: { kind: 'error', step: 1 } })
    expect(error.message).toMatch(/^run\(\): turn 1 ended error: .*ECONNREFUSED/)
    expect(await agent.outcome(error.id)).toMatchObject({ kind: 'delivered', turn: 1 })
  })

  it('R115, R81: the options are the followup’s: a turn capped by maxSteps rejects with max-steps', async () => {
    const { agent } = run([callEcho, callEcho], { tools: [echo] })
    const error = await failure(agent.run('loop', { maxSteps: 1 }))
    expect(error).toMatchObject({ turn: 1, reason: { kind: 'max-steps' } })
  })

  it('R115: a message that never opens a turn rejects without a turn (discarded, blocked)', async () => {
    const { agent, log } = run([{ hang: true }], { onError: false })
    const first = agent.run('first')
    await until(() => log.includes('step/start(1.1)'), 'the first turn runs')
    const second = agent.run('second')
    agent.cancel({ kind: 'user' })
    expect(await failure(first)).toMatchObject({ turn: 1, reason: { kind: 'aborted' } })
    const discarded = await failure(second)
    expect(discarded.turn).toBeUndefined()
    expect(discarded).toMatchObject({ reason: { kind: 'discarded', reason: 'cancel' } })
    expect(discarded.message).toMatch(/was discarded \(cancel\), so no turn ran/)

    const { agent: guarded } = run(['never'], {
      hooks: { promptSubmit: () => ({ kind: 'block', reason: 'no' }) },
    })
    expect(await failure(guarded.run('x'))).toMatchObject({ reason: { kind: 'blocked', reason: 'no' } })
  })

  it('R115: bad input throws at once, as followup() does, and nothing is sent', () => {
    const { agent } = run(['never'])
    expect(() => agent.run(42 as never)).toThrow(InvalidInputError)
    expect(() => agent.run('x', { maxSteps: 0 })).toThrow(
      /run\(\): options\.maxSteps: expected a whole number, 1 or more, or Infinity/,
    )
    expect(agent.inbox.queue).toStrictEqual([])
  })

  it('R115: a run whose turn waits for an approval stays pending until it is decided', async () => {
    const ask = defineTool({ ...echo, needsApproval: true })
    const { agent } = run([callEcho, 'Approved and done.'], { tools: [ask] })
    let settled = false
    const result = agent.run('go').finally(() => {
      settled = true
    })
    const pending = deferred<string>()
    agent.approvals$.subscribe((list) => list[0] && pending.resolve(list[0].callId))
    const callId = await pending.promise
    await new Promise((resolve) => setImmediate(resolve)) // what was due after the pause has run
    expect(settled).toBe(false)
    agent.approve(callId)
    expect(await result).toMatchObject({ text: 'Approved and done.' })
  })
})

describe('R116: a step cap by default', () => {
  const loop = (n: number): ScriptedReply[] => [...Array(n).fill(callEcho), 'finally']

  it('R116: a turn takes at most 50 steps by default; the last step’s tool calls are not run', async () => {
    const { agent, durable } = run(loop(60), { tools: [echo] })
    await expect(agent.run('loop')).rejects.toMatchObject({ reason: { kind: 'max-steps' } })
    expect(durable.filter((e) => e.type === 'step/start')).toHaveLength(50)
    const results = durable.flatMap((e) => (e.type === 'tool/result' ? [e.data] : []))
    expect(results.at(-1)).toMatchObject({ step: 50, result: { isError: true, code: 'NOT_RUN_MAX_STEPS' } })
  })

  it('R116: the agent option sets the cap; a followup’s maxSteps overrides it; Infinity removes it', async () => {
    const { agent: capped } = run(loop(5), { tools: [echo], maxSteps: 2 })
    await expect(capped.run('loop')).rejects.toMatchObject({ turn: 1, reason: { kind: 'max-steps' } })
    const { agent: wider } = run(loop(5), { tools: [echo], maxSteps: 2 })
    expect(await wider.run('loop', { maxSteps: Infinity })).toMatchObject({ text: 'finally' })
    const { agent: unbounded, durable } = run(loop(55), { tools: [echo], maxSteps: Infinity })
    expect(await unbounded.run('loop')).toMatchObject({ text: 'finally' })
    expect(durable.filter((e) => e.type === 'step/start')).toHaveLength(56)
  })

  it('R116, R117, R118: createAgent checks maxSteps, maxRetries and onError, listing every problem', () => {
    const model = scriptedModel([])
    const error = (() => {
      try {
        createAgent({ model, maxSteps: 0, maxRetries: -1, onError: 'log' as never })
      } catch (e) {
        return e as InvalidInputError
      }
    })()
    expect(error).toBeInstanceOf(InvalidInputError)
    expect(error?.issues.map((i) => i.path.join('.'))).toStrictEqual([
      'options.maxSteps',
      'options.maxRetries',
      'options.onError',
    ])
    expect(() => createAgent({ model, maxSteps: Infinity, maxRetries: 0, onError: false })).not.toThrow()
  })
})

describe('R118: failures are not silent', () => {
  it('R118: by default a failed turn writes one line to console.error', async () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { agent } = run([{ error: new Error('the model is down') }, 'fine'])
    agent.followup('x')
    await agent.whenIdle()
    expect(printed.mock.calls).toStrictEqual([
      ['steerable: turn 1 failed: the model is down (pass onError to handle it, or onError: false)'],
    ])
    await agent.run('again')
    expect(printed).toHaveBeenCalledTimes(1)
  })

  it('R118: onError is called with each agent/error and each turn/end whose reason is error', async () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {})
    const seen: AgentErrorReport[] = []
    const { agent } = run([{ error: down() }], { onError: (event) => void seen.push(event) })
    agent.followup('x')
    await agent.whenIdle()
    expect(seen.map((e) => e.type)).toStrictEqual(['agent/error', 'turn/end'])
    expect(seen[1]).toMatchObject({ data: { turn: 1, reason: { kind: 'error' } } })
    expect(printed).not.toHaveBeenCalled()
  })

  it('R118: onError: false reports nothing', async () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { agent } = run([{ error: down() }], { onError: false })
    agent.followup('x')
    await agent.whenIdle()
    expect(printed).not.toHaveBeenCalled()
  })

  it('R118: an onError that throws goes to config.onUnhandledError and changes nothing', async () => {
    const unhandled: unknown[] = []
    const before = config.onUnhandledError
    config.onUnhandledError = (error) => void unhandled.push(error)
    try {
      const oops = new Error('onError broke')
      const { agent, log } = run([{ error: down() }, 'fine'], {
        onError: () => {
          throw oops
        },
      })
      agent.followup('x')
      await agent.whenIdle()
      expect(unhandled).toStrictEqual([oops, oops])
      expect(log).toContain('settled(1,error)')
      expect(await agent.run('again')).toMatchObject({ turn: 2, text: 'fine' })
    } finally {
      config.onUnhandledError = before
    }
  })
})
