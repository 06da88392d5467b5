/**
 * `steerable/ai-sdk` with the AI SDK's own test models (`MockLanguageModelV4` / `V3`,
 * test/support/aisdkModels.ts): what `doStream` receives, how stream parts become model events,
 * finish reasons, aborts. Failures are in `errors.test.ts`.
 */

import { from, lastValueFrom, tap } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { fromLanguageModel } from '../../src/aisdk.js'
import { InvalidInputError, type Message, type ModelEvent } from '../../src/index.js'
import { ModelRequestError } from '../../src/openai.js'
import { MockLanguageModelV3, MockLanguageModelV4 } from '../support/aisdkModels.js'
import { answer, finish, liveStream, reasoning, text, toolCall, usage } from '../support/aisdkParts.js'
import { collect, failure, modelOf, request, user } from '../support/aisdkRequests.js'

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
    ['a negative count', usage(3, -1)],
    ['an infinite count', usage(Number.POSITIVE_INFINITY, 5)],
    ['a count that is not a number', usage(Number.NaN, 5)],
  ])('R73: finish with %s finishes without usage, so the request is estimated', async (_what, totals) => {
    const events = await collect(modelOf(answer(text('t', 'a'), finish('stop', totals))))
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

  it('refuses a model id, a non-model and a version 2 model with an InvalidInputError that says what to pass', () => {
    expect(() => fromLanguageModel('anthropic/claude' as never)).toThrow(InvalidInputError)
    expect(() => fromLanguageModel('anthropic/claude' as never)).toThrow(
      /^fromLanguageModel\(\): model: got the model id 'anthropic\/claude'; pass the model of a provider package/,
    )
    expect(() => fromLanguageModel({} as never)).toThrow(
      /expected a language model of an AI SDK provider package/,
    )
    const v2 = { specificationVersion: 'v2', provider: 'p', modelId: 'm', doStream: () => {} }
    expect(() => fromLanguageModel(v2 as never)).toThrow(
      /provider interface v2; versions v3 \(ai 6\) and v4 \(ai 7\)/,
    )
  })

  it('lists a bad model and a bad timeout at once', () => {
    expect(() => fromLanguageModel('claude' as never, { headersTimeoutMs: 0 })).toThrow(
      /model: got the model id 'claude'.*; options\.headersTimeoutMs: expected a number of milliseconds from 1/,
    )
  })
})

/** Polls until `check` holds (the stream's reads are Promise callbacks). */
const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 2))
  expect(check()).toBe(true)
}
