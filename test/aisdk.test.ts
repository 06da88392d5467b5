/**
 * `steerable/ai-sdk` with the AI SDK's own test models (`MockLanguageModelV4` / `V3` from
 * `ai/test`): what `doStream` receives, how stream parts become model events, finish reasons,
 * every kind of failure as a `ModelRequestError`, aborts, and what an error may quote.
 */
import { APICallError } from '@ai-sdk/provider'
import { MockLanguageModelV3, MockLanguageModelV4 } from 'ai/test'
import { from, lastValueFrom, tap, toArray } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { type FromLanguageModelOptions, fromLanguageModel, type LanguageModel } from '../src/aisdk.js'
import type { Message, ModelEvent, ModelRequest } from '../src/index.js'
import { ModelRequestError } from '../src/openai.js'
import {
  answer,
  finish,
  liveStream,
  type Part,
  reasoning,
  text,
  toolCall,
  usage,
} from './support/aisdkParts.js'

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] })

const request = (over: Partial<ModelRequest> = {}): ModelRequest => ({
  agentId: 'agent-1',
  turn: 1,
  step: 1,
  messages: [user('hi')],
  tools: [],
  signal: new AbortController().signal,
  ...over,
})

const modelOf = (...answers: ReturnType<typeof answer>[]) => new MockLanguageModelV4({ doStream: answers })

/** All events of one request. */
const collect = (
  model: LanguageModel,
  over: Partial<ModelRequest> = {},
  options?: FromLanguageModelOptions,
) => lastValueFrom(from(fromLanguageModel(model, options)(request(over))).pipe(toArray()))

/** The events emitted before the request failed, and the error. */
const failure = async (model: LanguageModel, options?: FromLanguageModelOptions) => {
  const events: ModelEvent[] = []
  const error = await lastValueFrom(
    from(fromLanguageModel(model, options)(request())).pipe(
      tap((e) => events.push(e)),
      toArray(),
    ),
  ).then(
    () => new Error('expected the request to fail'),
    (e: unknown) => e,
  )
  return { events, error: error as ModelRequestError }
}

const throwing = (error: unknown) =>
  new MockLanguageModelV4({
    doStream: async () => {
      throw error
    },
  })

describe('fromLanguageModel: the stream', () => {
  it('streams text and reasoning deltas, then finish with the usage totals', async () => {
    const model = modelOf(
      answer(
        reasoning('r0', 'Think', 'ing.'),
        text('t0', 'Hello', '', ' world'),
        finish('stop', usage(12, 4)),
      ),
    )
    expect(await collect(model)).toEqual([
      { type: 'reasoning', text: 'Think' },
      { type: 'reasoning', text: 'ing.' },
      { type: 'text', text: 'Hello' },
      { type: 'text', text: ' world' },
      { type: 'finish', reason: 'stop', usage: { inputTokens: 12, outputTokens: 4 } },
    ])
  })

  it('tool calls come complete with the raw JSON input; input deltas, provider-executed calls and other parts are skipped', async () => {
    const model = modelOf(
      answer(
        { type: 'response-metadata', id: 'msg_1', modelId: 'mock' },
        toolCall('call_1', 'add', '{"a":2,"b":3}'),
        {
          type: 'tool-call',
          toolCallId: 'ws_1',
          toolName: 'web_search',
          input: '{}',
          providerExecuted: true,
        },
        { type: 'tool-result', toolCallId: 'ws_1', toolName: 'web_search', result: { hits: 0 } },
        { type: 'source', sourceType: 'url', id: 's1', url: 'https://example.com' },
        toolCall('call_2', 'now', ''),
        finish('tool-calls'),
      ),
    )
    expect(await collect(model)).toEqual([
      { type: 'tool-call', id: 'call_1', name: 'add', arguments: '{"a":2,"b":3}' },
      { type: 'tool-call', id: 'call_2', name: 'now', arguments: '{}' },
      { type: 'finish', reason: 'tool-calls', usage: { inputTokens: 3, outputTokens: 5 } },
    ])
  })

  it('the same code serves a LanguageModelV3 (the ai 6 generation)', async () => {
    const model = new MockLanguageModelV3({
      doStream: {
        stream: new ReadableStream({
          start: (c) => {
            for (const part of [...text('t0', 'v3'), ...toolCall('c1', 'add', '{}'), finish('tool-calls')])
              c.enqueue(part as never)
            c.close()
          },
        }),
      },
    })
    expect(await collect(model)).toEqual([
      { type: 'text', text: 'v3' },
      { type: 'tool-call', id: 'c1', name: 'add', arguments: '{}' },
      { type: 'finish', reason: 'tool-calls', usage: { inputTokens: 3, outputTokens: 5 } },
    ])
    expect(model.doStreamCalls).toHaveLength(1)
  })

  it.each([
    ['stop', [], 'stop'],
    ['tool-calls', toolCall('c1', 'add', '{}'), 'tool-calls'],
    ['length', [], 'max-tokens'],
    ['other', [], 'stop'],
    ['other', toolCall('c1', 'add', '{}'), 'tool-calls'],
  ] as const)("finish reason '%s' (with %j) finishes with %s", async (unified, parts, reason) => {
    const events = await collect(modelOf(answer(parts, finish(unified))))
    expect(events.at(-1)).toEqual({ type: 'finish', reason, usage: { inputTokens: 3, outputTokens: 5 } })
  })

  it('finish without usage totals finishes without usage; parts after finish are not read', async () => {
    const none = { ...usage(0, 0), inputTokens: { ...usage(0, 0).inputTokens, total: undefined } }
    const events = await collect(modelOf(answer(text('t', 'a'), finish('stop', none), text('t2', 'late'))))
    expect(events).toEqual([
      { type: 'text', text: 'a' },
      { type: 'finish', reason: 'stop' },
    ])
  })

  it.each([
    ['error', "finish reason 'error'", 'retrying the request may help'],
    ['interrupted', "finish reason 'interrupted'", 'retrying the request may help'],
    ['content-filter', "finish reason 'content-filter'", 'retrying will likely give the same answer'],
  ] as const)(
    "finish reason '%s' fails the request after the deltas: the answer is not whole",
    async (unified, what, advice) => {
      const { events, error } = await failure(modelOf(answer(text('t', 'Half an'), finish(unified))))
      expect(events).toEqual([{ type: 'text', text: 'Half an' }])
      expect(error).toBeInstanceOf(ModelRequestError)
      expect(error.message).toContain('fromLanguageModel(mock-provider mock-model-id): ')
      expect(error.message).toContain(what)
      expect(error.message).toContain(advice)
      expect(error.status).toBeUndefined()
    },
  )
})

describe('fromLanguageModel: the call', () => {
  it('passes system, user text, assistant text and tool calls, tool results, tools and call options to doStream', async () => {
    const model = modelOf(answer(finish('stop')))
    const messages: Message[] = [
      user('What is 2+3?'),
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Let me add.' },
          { type: 'text', text: 'Adding.' },
          { type: 'tool-call', id: 'call_1', name: 'add', arguments: '{"a":2,"b":3}' },
          { type: 'tool-call', id: 'call_2', name: 'add', arguments: '{"a":' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'call_1', content: [{ type: 'text', text: '5' }] },
          {
            type: 'tool-result',
            toolCallId: 'call_2',
            content: [{ type: 'text', text: 'arguments are not JSON' }],
            isError: true,
            code: 'INVALID_ARGUMENTS',
          },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Be brief.' },
          { type: 'text', text: 'Really.' },
        ],
      },
    ]
    const parameters = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {},
    }
    const tools = [{ name: 'add', description: 'Adds.', parameters }]
    await collect(
      model,
      { system: 'You add.', messages, tools },
      { callOptions: { temperature: 0, maxOutputTokens: 100, providerOptions: { anthropic: { x: 1 } } } },
    )
    const call = model.doStreamCalls[0]
    expect(call?.prompt).toEqual([
      { role: 'system', content: 'You add.' },
      { role: 'user', content: [{ type: 'text', text: 'What is 2+3?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Adding.' },
          { type: 'tool-call', toolCallId: 'call_1', toolName: 'add', input: { a: 2, b: 3 } },
          { type: 'tool-call', toolCallId: 'call_2', toolName: 'add', input: {} },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_1',
            toolName: 'add',
            output: { type: 'text', value: '5' },
          },
          {
            type: 'tool-result',
            toolCallId: 'call_2',
            toolName: 'add',
            output: { type: 'error-text', value: 'arguments are not JSON' },
          },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Be brief.' },
          { type: 'text', text: 'Really.' },
        ],
      },
    ])
    expect(call?.tools).toEqual([
      {
        type: 'function',
        name: 'add',
        description: 'Adds.',
        inputSchema: { type: 'object', properties: {} },
      },
    ])
    expect(call).toMatchObject({
      temperature: 0,
      maxOutputTokens: 100,
      providerOptions: { anthropic: { x: 1 } },
    })
    expect(call?.abortSignal).toBeInstanceOf(AbortSignal)
  })

  it('sends no system message and no tools key when there are none', async () => {
    const model = modelOf(answer(finish('stop')))
    await collect(model)
    expect(model.doStreamCalls[0]?.prompt).toEqual([user('hi')])
    expect(model.doStreamCalls[0]).not.toHaveProperty('tools')
  })

  it('nothing is called before subscription; each subscription is one call; unsubscribing aborts the call and cancels the stream', async () => {
    let live: ReturnType<typeof liveStream> | undefined
    const model = new MockLanguageModelV4({
      doStream: async (options) => {
        live = liveStream(options)
        return { stream: live.stream }
      },
    })
    const events = fromLanguageModel(model)(request())
    expect(model.doStreamCalls).toHaveLength(0)
    const seen: ModelEvent[] = []
    const subscription = from(events).subscribe((e) => seen.push(e))
    await waitFor(() => live !== undefined)
    live?.push(text('t', 'partial'))
    await waitFor(() => seen.length === 1)
    subscription.unsubscribe()
    await live?.cancelled
    expect(model.doStreamCalls[0]?.abortSignal?.aborted).toBe(true)
    expect(seen).toEqual([{ type: 'text', text: 'partial' }])
  })

  it('an abort of request.signal mid-stream errors with its reason, and the provider sees the abort', async () => {
    let live: ReturnType<typeof liveStream> | undefined
    const model = new MockLanguageModelV4({
      doStream: async (options) => {
        live = liveStream(options)
        return { stream: live.stream }
      },
    })
    const controller = new AbortController()
    const reason = { kind: 'user' }
    const seen: ModelEvent[] = []
    const done = lastValueFrom(
      from(fromLanguageModel(model)(request({ signal: controller.signal }))).pipe(tap((e) => seen.push(e))),
    ).catch((e: unknown) => e)
    await waitFor(() => live !== undefined)
    live?.push(text('t', 'so far'))
    await waitFor(() => seen.length === 1)
    controller.abort(reason)
    expect(await done).toBe(reason)
    expect(model.doStreamCalls[0]?.abortSignal?.aborted).toBe(true)
    expect(model.doStreamCalls[0]?.abortSignal?.reason).toBe(reason)
  })

  it('an already-aborted signal errors with its reason and calls nothing', async () => {
    const model = modelOf(answer(finish('stop')))
    const controller = new AbortController()
    controller.abort('gone')
    await expect(collect(model, { signal: controller.signal })).rejects.toBe('gone')
    expect(model.doStreamCalls).toHaveLength(0)
  })

  it('refuses a model id, a non-model and a version 2 model with a TypeError that says what to pass', () => {
    expect(() => fromLanguageModel('anthropic/claude' as never)).toThrow(
      /got the model id 'anthropic\/claude'; pass the model of a provider package/,
    )
    expect(() => fromLanguageModel({} as never)).toThrow(
      /expected a language model of an AI SDK provider package/,
    )
    const v2 = { specificationVersion: 'v2', provider: 'p', modelId: 'm', doStream: () => {} }
    expect(() => fromLanguageModel(v2 as never)).toThrow(
      /provider interface v2; versions v3 \(ai 6\) and v4 \(ai 7\)/,
    )
  })
})

/** Polls until `check` holds (the stream's reads are Promise callbacks). */
const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 2))
  expect(check()).toBe(true)
}

describe('fromLanguageModel: failures are ModelRequestErrors', () => {
  const rateLimited = (headers: Record<string, string>) =>
    new APICallError({
      message: 'Number of request tokens has exceeded your per-minute rate limit',
      url: 'https://api.anthropic.com/v1/messages',
      requestBodyValues: {},
      statusCode: 429,
      responseHeaders: headers,
      responseBody:
        '{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}',
    })

  it('a thrown APICallError 429: status, retryAfterMs from retry-after, the body, a hint; the cause kept', async () => {
    const thrown = rateLimited({ 'retry-after': '2' })
    const { error } = await failure(throwing(thrown))
    expect(error).toBeInstanceOf(ModelRequestError)
    expect(error).toMatchObject({ name: 'ModelRequestError', status: 429, retryAfterMs: 2000 })
    expect(error.message).toBe(
      'fromLanguageModel(mock-provider mock-model-id): https://api.anthropic.com/v1/messages answered 429: ' +
        'Number of request tokens has exceeded your per-minute rate limit (retry after 2000 ms)',
    )
    expect(error.body).toContain('rate_limit_error')
    expect(error.cause).toBe(thrown)
  })

  it('retry-after-ms is preferred to retry-after', async () => {
    const { error } = await failure(throwing(rateLimited({ 'retry-after': '2', 'retry-after-ms': '150' })))
    expect(error.retryAfterMs).toBe(150)
  })

  it('an APICallError without a status (no answer): status undefined, its message once, retrying may help', async () => {
    const thrown = new APICallError({
      message: 'Cannot connect to API: connect ECONNREFUSED 127.0.0.1:1',
      url: 'http://127.0.0.1:1/v1/messages',
      requestBodyValues: {},
      cause: new Error('connect ECONNREFUSED 127.0.0.1:1'),
      isRetryable: true,
    })
    const { error } = await failure(throwing(thrown))
    expect(error).toMatchObject({ status: undefined, retryAfterMs: undefined, body: undefined })
    expect(error.message).toBe(
      'fromLanguageModel(mock-provider mock-model-id): the request to http://127.0.0.1:1/v1/messages failed: ' +
        'Cannot connect to API: connect ECONNREFUSED 127.0.0.1:1; retrying the request may help',
    )
  })

  it('anything else doStream throws (a missing API key) fails with its message: retrying will not help', async () => {
    const { error } = await failure(
      throwing(new Error("Anthropic API key is missing. Pass it using the 'apiKey' parameter.")),
    )
    expect(error).toBeInstanceOf(ModelRequestError)
    expect(error.status).toBeUndefined()
    expect(error.message).toMatch(/: Anthropic API key is missing\..*; retrying will not help$/)
  })

  it('an error part fails the request after the deltas before it, with what the provider reported', async () => {
    const overloaded = { type: 'overloaded_error', message: 'Overloaded' }
    const { events, error } = await failure(
      modelOf(answer(text('t', 'Hel'), { type: 'error', error: overloaded }, finish('stop'))),
    )
    expect(events).toEqual([{ type: 'text', text: 'Hel' }])
    expect(error).toBeInstanceOf(ModelRequestError)
    expect(error.status).toBeUndefined()
    expect(error.message).toBe(
      'fromLanguageModel(mock-provider mock-model-id): the provider reported an error mid-stream: ' +
        'overloaded_error: Overloaded; retrying the request may help',
    )
  })

  it('an error part that holds an APICallError keeps its status', async () => {
    const part: Part = { type: 'error', error: rateLimited({ 'retry-after': '1' }) }
    const { error } = await failure(modelOf(answer(part)))
    expect(error).toMatchObject({ status: 429, retryAfterMs: 1000 })
  })

  it('a stream that breaks while read, and one that ends before finish: status undefined, retrying may help', async () => {
    let pulls = 0
    const stream = new ReadableStream<Part>({
      pull: (c) => {
        if (pulls++ > 0) return c.error(new TypeError('terminated'))
        for (const part of text('t', 'a')) c.enqueue(part)
      },
    })
    const broken = new MockLanguageModelV4({ doStream: { stream } })
    const one = await failure(broken)
    expect(one.events).toEqual([{ type: 'text', text: 'a' }])
    expect(one.error.message).toMatch(
      /the stream broke while reading the answer: terminated; retrying the request may help$/,
    )
    const two = await failure(modelOf(answer(text('t', 'a'))))
    expect(two.error).toBeInstanceOf(ModelRequestError)
    expect(two.error.message).toMatch(/the stream ended before the model finished \(no finish part\)/)
  })

  it('a malformed part fails the request naming what was wrong', async () => {
    const { error } = await failure(modelOf(answer({ type: 'text-delta', id: 't', delta: 7 } as never)))
    expect(error.message).toMatch(/a text-delta part without a string delta/)
  })

  it('a doStream that resolves without a stream fails: retrying will not help', async () => {
    const { error } = await failure(new MockLanguageModelV4({ doStream: async () => ({}) as never }))
    expect(error.message).toMatch(/doStream resolved without a readable stream; retrying will not help$/)
  })

  it('no error quotes the API key: from the environment, the secrets option or a credential header', async () => {
    const key = 'sk-ant-test-0123456789abcdef'
    const own = 'own-secret-987654321'
    const header = 'header-secret-5555555'
    process.env.STEERABLE_TEST_API_KEY = key
    try {
      const echo = `invalid x-api-key ${key}; also ${own} and ${header}`
      const thrown = new APICallError({
        message: echo,
        url: `https://api.example.com/v1/messages?key=${key}`,
        requestBodyValues: {},
        statusCode: 401,
        responseBody: JSON.stringify({ error: { message: echo } }),
        cause: new Error(echo),
      })
      const options = { secrets: [own], callOptions: { headers: { 'x-api-key': header } } }
      for (const model of [throwing(thrown), modelOf(answer({ type: 'error', error: { message: echo } }))]) {
        const { error } = await failure(model, options)
        const everything = `${error.message} ${error.body} ${String((error.cause as Error).message)}`
        for (const secret of [key, own, header]) expect(everything).not.toContain(secret)
        expect(error.message).toContain('[redacted]')
      }
    } finally {
      delete process.env.STEERABLE_TEST_API_KEY
    }
  })
})
