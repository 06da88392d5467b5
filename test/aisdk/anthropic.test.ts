/**
 * End to end: `steerable/ai-sdk` with the real `@ai-sdk/anthropic` provider package against a
 * local server on 127.0.0.1 that speaks the Anthropic Messages streaming format. A turn with a tool
 * call, a turn steered mid-stream, a 429 retried from a `requestError` hook, and a cancel that
 * closes the connection.
 */
import { createAnthropic } from '@ai-sdk/anthropic'
import { asapScheduler } from 'rxjs'
import { afterEach, describe, expect, it, onTestFinished } from 'vitest'
import { z } from 'zod'
import { fromLanguageModel, ModelRequestError } from '../../src/aisdk.js'
import { type AgentEvent, createAgent, defineTool } from '../../src/index.js'
import { deferred, record } from '../support/agents.js'
import {
  anthropicHead,
  blockEvents,
  message,
  messageEnd,
  messageStart,
  textBlock,
  toolUse,
} from '../support/anthropicServer.js'
import { closeServers, inTurn, serve, type TestServer } from '../support/openaiServer.js'

afterEach(closeServers)

const apiKey = 'sk-ant-local-test-key-0123456789'

const claude = (server: TestServer) =>
  fromLanguageModel(createAnthropic({ baseURL: server.baseURL, apiKey })('claude-test'))

type AnthropicBody = { system?: unknown; messages: unknown[]; tools?: unknown[]; stream?: boolean }
const bodyOf = (server: TestServer, index: number) => server.received[index]?.body as AnthropicBody

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
})

describe('@ai-sdk/anthropic through fromLanguageModel, against a local Messages server', () => {
  it('R15/R16: a turn with a tool call: the input assembled from input_json_delta, the result sent back', async () => {
    const server = await serve(
      inTurn(
        message('tool_use', textBlock('Let me ', 'add.'), toolUse('toolu_01', 'add', '{"a":2,', '"b":3}')),
        message('end_turn', textBlock('The sum ', 'is 5.')),
      ),
    )
    const agent = createAgent({
      model: claude(server),
      instructions: 'You add numbers.',
      tools: [add],
      scheduler: asapScheduler,
    })
    const { log, durable } = record(agent)
    agent.followup('What is 2+3?')
    await agent.whenIdle()
    expect(log).toEqual([
      'enqueue(What is 2+3?,queued)',
      'running',
      'dequeue(What is 2+3?)',
      'turn/start(1)',
      'user(What is 2+3?)',
      'step/start(1.1)',
      'assistant(Let me add.)',
      'tool/call(add)',
      'tool/result(toolu_01)',
      'step/end(1.1)',
      'step/start(1.2)',
      'assistant(The sum is 5.)',
      'step/end(1.2)',
      'turn/end(1,completed)',
      'settled(1,completed)',
      'idle',
    ])
    expect(durable.find((e) => e.type === 'assistant/message')?.data).toEqual({
      turn: 1,
      step: 1,
      content: [
        { type: 'text', text: 'Let me add.' },
        { type: 'tool-call', id: 'toolu_01', name: 'add', arguments: '{"a":2,"b":3}' },
      ],
      usage: { inputTokens: 10, outputTokens: 5, cachedInputTokens: 0 },
    })
    expect(server.received[0]?.url).toBe('/v1/messages')
    expect(server.received[0]?.headers['x-api-key']).toBe(apiKey)
    expect(bodyOf(server, 0)).toMatchObject({
      model: 'claude-test',
      stream: true,
      system: [{ type: 'text', text: 'You add numbers.' }],
      tools: [
        {
          name: 'add',
          description: 'Adds two numbers.',
          input_schema: expect.objectContaining({ type: 'object', required: ['a', 'b'] }),
        },
      ],
    })
    expect(bodyOf(server, 1).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'What is 2+3?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me add.' },
          { type: 'tool_use', id: 'toolu_01', name: 'add', input: { a: 2, b: 3 } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '5' }] },
    ])
    await agent.dispose()
  })

  it('R16/R20: a steer sent while the answer streams lands between two steps and reaches the next request', async () => {
    const release = deferred()
    const server = await serve(
      inTurn(
        (res) => {
          anthropicHead(res)
          res.write(messageStart())
          const [start, delta] = blockEvents(textBlock('Steering is a long story'), 0)
          res.write(`${start}${delta}`)
          void release.promise.then(() => {
            res.write(blockEvents(textBlock(), 0).at(-1))
            for (const event of messageEnd('end_turn')) res.write(event)
            res.end()
          })
        },
        message('end_turn', textBlock('A correction mid-turn.')),
      ),
    )
    const agent = createAgent({ model: claude(server), scheduler: asapScheduler })
    const { log, live } = record(agent)
    agent.followup('Explain steering.')
    while (!live.some((e: AgentEvent) => e.type === 'agent/stream/delta'))
      await new Promise((r) => setTimeout(r, 2))
    agent.steer('Be brief.')
    release.resolve()
    await agent.whenIdle()
    expect(log).toEqual([
      'enqueue(Explain steering.,queued)',
      'running',
      'dequeue(Explain steering.)',
      'turn/start(1)',
      'user(Explain steering.)',
      'step/start(1.1)',
      'enqueue(Be brief.,steering)',
      'assistant(Steering is a long story)',
      'dequeue(Be brief.)',
      'steering(Be brief.)',
      'step/end(1.1)',
      'step/start(1.2)',
      'assistant(A correction mid-turn.)',
      'step/end(1.2)',
      'turn/end(1,completed)',
      'settled(1,completed)',
      'idle',
    ])
    expect(bodyOf(server, 1).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Explain steering.' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Steering is a long story' }] },
      { role: 'user', content: [{ type: 'text', text: 'Be brief.' }] },
    ])
    await agent.dispose()
  })

  it('R24: a 429 with retry-after is a ModelRequestError with status and retryAfterMs, and retry() succeeds', async () => {
    const server = await serve(
      inTurn(
        (res) => {
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' })
          res.end(
            JSON.stringify({
              type: 'error',
              error: { type: 'rate_limit_error', message: `Rate limit reached for key ${apiKey}` },
            }),
          )
        },
        message('end_turn', textBlock('Recovered.')),
      ),
    )
    const seen: unknown[] = []
    // As most apps do: the provider reads its key from ANTHROPIC_API_KEY, and errors redact it.
    const before = process.env.ANTHROPIC_API_KEY
    process.env.ANTHROPIC_API_KEY = apiKey
    onTestFinished(() => {
      if (before === undefined) delete process.env.ANTHROPIC_API_KEY
      else process.env.ANTHROPIC_API_KEY = before
    })
    const model = fromLanguageModel(createAnthropic({ baseURL: server.baseURL })('claude-test'))
    const agent = createAgent({
      model,
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
    const error = seen[0] as ModelRequestError
    expect(error).toBeInstanceOf(ModelRequestError)
    expect(error).toMatchObject({ status: 429, retryAfterMs: 1000 })
    expect(error.message).toMatch(
      /^fromLanguageModel\(anthropic\.messages claude-test\): http:\/\/127\.0\.0\.1:\d+\/v1\/messages answered 429: Rate limit reached for key \[redacted\] \(retry after 1000 ms\)$/,
    )
    expect(`${error.message}${error.body}`).not.toContain(apiKey)
    expect(server.received[0]?.headers['x-api-key']).toBe(apiKey)
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
    expect(server.received).toHaveLength(2)
    await agent.dispose()
  })

  it('R25: a cancel mid-stream closes the connection to the server and the turn ends aborted', async () => {
    const server = await serve((res) => {
      anthropicHead(res)
      res.write(messageStart())
      const [start, delta] = blockEvents(textBlock('Once upon a time'), 0)
      res.write(`${start}${delta}`) // and never more
    })
    const agent = createAgent({ model: claude(server), scheduler: asapScheduler })
    const { log, live } = record(agent)
    agent.followup('Write an essay.')
    while (!live.some((e: AgentEvent) => e.type === 'agent/stream/delta'))
      await new Promise((r) => setTimeout(r, 2))
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
    await server.closed(0)
    expect(log.slice(-4)).toEqual(['step/end(1.1)', 'turn/end(1,aborted)', 'settled(1,aborted)', 'idle'])
    await agent.dispose()
  })
})
