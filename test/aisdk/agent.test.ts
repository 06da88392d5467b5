/**
 * An agent on `steerable/ai-sdk`, with the AI SDK's own test model (`MockLanguageModelV4`,
 * test/support/aisdkModels.ts): a tool round trip through the tool runner, a steer that lands
 * between two steps, a cancel mid-stream that the provider sees, and a rate limit that a
 * `requestError` hook retries.
 */
import { APICallError, type LanguageModelV3CallOptions } from '@ai-sdk/provider'
import { asapScheduler } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { fromLanguageModel, ModelRequestError } from '../../src/aisdk.js'
import { createAgent, defineTool } from '../../src/index.js'
import { record } from '../support/agents.js'
import { MockLanguageModelV4 } from '../support/aisdkModels.js'
import { answer, finish, liveStream, text, toolCall } from '../support/aisdkParts.js'

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
})

/** A model whose every call is a stream the test feeds by hand; `calls[i]` feeds call i. */
const handFed = () => {
  const calls: ReturnType<typeof liveStream>[] = []
  const waiters: (() => void)[] = []
  const model = new MockLanguageModelV4({
    doStream: async (options: LanguageModelV3CallOptions) => {
      const live = liveStream(options)
      calls.push(live)
      for (const wake of waiters.splice(0)) wake()
      return { stream: live.stream }
    },
  })
  /** Resolves with call `index` once it has been made. */
  const call = async (index: number) => {
    while (calls[index] === undefined) await new Promise<void>((resolve) => waiters.push(resolve))
    return calls[index]
  }
  return { model, call }
}

describe('an agent on fromLanguageModel', () => {
  it('R15/R16: a tool round trip through the tool runner; the second call sees the call and its result', async () => {
    const model = new MockLanguageModelV4({
      doStream: [
        answer(text('t0', 'Adding.'), toolCall('toolu_1', 'add', '{"a":2,"b":3}'), finish('tool-calls')),
        answer(text('t1', 'The sum ', 'is 5.'), finish('stop')),
      ],
    })
    const agent = createAgent({
      model: fromLanguageModel(model),
      instructions: 'You add numbers.',
      tools: [add],
      scheduler: asapScheduler,
    })
    const { log } = record(agent)
    agent.followup('What is 2+3?')
    await agent.whenIdle()
    expect(log).toEqual([
      'enqueue(What is 2+3?,queued)',
      'running',
      'dequeue(What is 2+3?)',
      'turn/start(1)',
      'user(What is 2+3?)',
      'step/start(1.1)',
      'assistant(Adding.)',
      'tool/call(add)',
      'tool/result(toolu_1)',
      'step/end(1.1)',
      'step/start(1.2)',
      'assistant(The sum is 5.)',
      'step/end(1.2)',
      'turn/end(1,completed)',
      'settled(1,completed)',
      'idle',
    ])
    expect(model.doStreamCalls[1]?.prompt).toEqual([
      { role: 'system', content: 'You add numbers.' },
      { role: 'user', content: [{ type: 'text', text: 'What is 2+3?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Adding.' },
          { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'add', input: { a: 2, b: 3 } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'toolu_1',
            toolName: 'add',
            output: { type: 'text', value: '5' },
          },
        ],
      },
    ])
    expect(model.doStreamCalls[0]?.tools).toEqual([
      {
        type: 'function',
        name: 'add',
        description: 'Adds two numbers.',
        inputSchema: expect.objectContaining({ type: 'object', required: ['a', 'b'] }),
      },
    ])
    await agent.dispose()
  })

  it('R16/R20: a steer sent while step 1 streams lands between the steps and reaches the second call', async () => {
    const { model, call } = handFed()
    const agent = createAgent({ model: fromLanguageModel(model), scheduler: asapScheduler })
    const { log, when } = record(agent)
    agent.followup('Explain steering.')
    const first = await call(0)
    first.push(text('t0', 'Steering is a long story'))
    await when('running')
    agent.steer('Be brief.')
    first.push(finish('stop'))
    const second = await call(1)
    second.push(text('t1', 'A correction mid-turn.'), finish('stop'))
    await agent.whenIdle()
    const at = (entry: string) => log.indexOf(entry)
    expect(at('assistant(Steering is a long story)')).toBeGreaterThan(at('step/start(1.1)'))
    expect(at('steering(Be brief.)')).toBeGreaterThan(at('assistant(Steering is a long story)'))
    expect(at('step/start(1.2)')).toBeGreaterThan(at('steering(Be brief.)'))
    expect(log.slice(-4)).toEqual(['step/end(1.2)', 'turn/end(1,completed)', 'settled(1,completed)', 'idle'])
    expect(model.doStreamCalls[1]?.prompt).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Explain steering.' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Steering is a long story' }] },
      { role: 'user', content: [{ type: 'text', text: 'Be brief.' }] },
    ])
    await agent.dispose()
  })

  it('R25: a cancel mid-stream aborts the provider call with the cause and the turn ends aborted', async () => {
    const { model, call } = handFed()
    const agent = createAgent({ model: fromLanguageModel(model), scheduler: asapScheduler })
    const { log, live } = record(agent)
    agent.followup('Write a long essay.')
    const first = await call(0)
    first.push(text('t0', 'Once upon'))
    while (!live.some((e) => e.type === 'agent/stream/delta')) await new Promise((r) => setTimeout(r, 1))
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
    const signal = model.doStreamCalls[0]?.abortSignal
    expect(signal?.aborted).toBe(true)
    expect(signal?.reason).toEqual({ kind: 'user' })
    expect(log.slice(-5)).toEqual([
      'cancel(user)',
      'step/end(1.1)',
      'turn/end(1,aborted)',
      'settled(1,aborted)',
      'idle',
    ])
    await agent.dispose()
  })

  it('R24: a 429 APICallError reaches requestError as a ModelRequestError, and retry() runs a retry turn', async () => {
    let calls = 0
    const model = new MockLanguageModelV4({
      doStream: async () => {
        if (calls++ === 0)
          throw new APICallError({
            message: 'Rate limited',
            url: 'https://api.anthropic.com/v1/messages',
            requestBodyValues: {},
            statusCode: 429,
            responseHeaders: { 'retry-after': '1' },
          })
        return answer(text('t', 'Recovered.'), finish('stop'))
      },
    })
    const seen: unknown[] = []
    const agent = createAgent({
      model: fromLanguageModel(model),
      scheduler: asapScheduler,
      maxRetries: 0, // R24 through the requestError hook: the agent's own retries (R117) are off
      hooks: {
        requestError: ({ agent, error }) => {
          seen.push(error)
          if (error instanceof ModelRequestError && error.status === 429) agent.retry()
        },
      },
    })
    const { log } = record(agent)
    agent.followup('go')
    await agent.whenIdle()
    expect(seen).toHaveLength(1)
    expect(seen[0]).toBeInstanceOf(ModelRequestError)
    expect(seen[0]).toMatchObject({ status: 429, retryAfterMs: 1000 })
    expect(log).toEqual([
      'enqueue(go,queued)',
      'running',
      'dequeue(go)',
      'turn/start(1)',
      'user(go)',
      'step/start(1.1)',
      'step/end(1.1)',
      'error(1.1)',
      'turn/end(1,error)',
      'turn/start(2,retry)',
      'step/start(2.1)',
      'assistant(Recovered.)',
      'step/end(2.1)',
      'turn/end(2,completed)',
      'settled(2,completed)',
      'idle',
    ])
    await agent.dispose()
  })

  it('R23: an error part, a broken stream and an unfinished answer each end the turn with an error; the agent goes on', async () => {
    const model = new MockLanguageModelV4({
      doStream: [
        answer(text('t', 'Hel'), {
          type: 'error',
          error: { type: 'overloaded_error', message: 'Overloaded' },
        }),
        answer(text('t', 'Half'), finish('interrupted')),
        answer(text('t', 'Fine.'), finish('stop')),
      ],
    })
    const agent = createAgent({ model: fromLanguageModel(model), scheduler: asapScheduler })
    const { live } = record(agent)
    for (const prompt of ['one', 'two', 'three']) {
      agent.followup(prompt)
      await agent.whenIdle()
    }
    const errors = live.flatMap((e) => (e.type === 'agent/error' ? [e.error] : []))
    expect(errors).toHaveLength(2)
    for (const error of errors) expect(error).toBeInstanceOf(ModelRequestError)
    expect(String((errors[0] as Error).message)).toContain('overloaded_error: Overloaded')
    expect(String((errors[1] as Error).message)).toContain("finish reason 'interrupted'")
    expect(agent.session.messages().at(-1)).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'Fine.' }],
    })
    await agent.dispose()
  })
})
