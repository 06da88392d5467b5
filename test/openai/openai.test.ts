/**
 * `steerable/openai` against a local server that speaks the Chat Completions streaming protocol:
 * streamed text, reasoning, tool calls assembled from interleaved deltas, usage, finish reasons,
 * HTTP failures, a dropped connection, a client abort, the request body, and an agent end to end.
 */
import { asapScheduler, from, lastValueFrom, tap, toArray } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  type AgentEvent,
  createAgent,
  defineTool,
  type Message,
  type ModelEvent,
  type ModelRequest,
  type SessionEvent,
} from '../../src/index.js'
import { ModelRequestError, type OpenAIModelOptions, openaiModel } from '../../src/openai.js'
import { label } from '../../src/testing.js'
import {
  answer,
  chunk,
  closeServers,
  delay,
  event,
  inTurn,
  serve,
  sse,
  sseHead,
  stopLastServer,
  type TestServer,
  usage,
} from '../support/openaiServer.js'

afterEach(closeServers)

/** The JSON body of request `index`. */
const bodyOf = (server: TestServer, index: number) =>
  server.received[index]?.body as Record<string, unknown> | undefined

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

const model = (server: TestServer, options: Partial<OpenAIModelOptions> = {}) =>
  openaiModel({ baseURL: server.baseURL, model: 'test-model', ...options })

/** All events of one request, or its error. */
const collect = (
  server: TestServer,
  over: Partial<ModelRequest> = {},
  options?: Partial<OpenAIModelOptions>,
) => lastValueFrom(from(model(server, options)(request(over))).pipe(toArray()))

/** The events emitted before the request failed, and the error. */
const failure = async (
  server: TestServer,
  over: Partial<ModelRequest> = {},
): Promise<{ events: ModelEvent[]; error: unknown }> => {
  const events: ModelEvent[] = []
  const error = await lastValueFrom(
    from(model(server)(request(over))).pipe(
      tap((e) => events.push(e)),
      toArray(),
    ),
  ).then(
    () => new Error('expected the request to fail'),
    (e: unknown) => e,
  )
  return { events, error }
}

describe('openaiModel: streaming', () => {
  it('streams text deltas, then finish with the usage of the final usage chunk', async () => {
    const server = await serve(
      sse(
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'Hel' }),
        chunk({ content: 'lo.' }),
        chunk({}, 'stop'),
        usage(12, 3),
      ),
    )
    expect(await collect(server)).toEqual([
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo.' },
      { type: 'finish', reason: 'stop', usage: { inputTokens: 12, outputTokens: 3 } },
    ])
  })

  it('reads events split anywhere across network writes, including inside a UTF-8 character', async () => {
    const server = await serve(async (res) => {
      sseHead(res)
      const bytes = Buffer.from(
        event(chunk({ content: 'café ' })) + event(chunk({ content: '🚀' }, 'stop')) + event('[DONE]'),
      )
      const cuts = [7, bytes.indexOf(Buffer.from('é')) + 1, bytes.indexOf(Buffer.from('🚀')) + 2]
      let at = 0
      for (const cut of [...cuts, bytes.length]) {
        res.write(bytes.subarray(at, cut))
        at = cut
        await delay(5)
      }
      res.end()
    })
    expect(await collect(server)).toEqual([
      { type: 'text', text: 'café ' },
      { type: 'text', text: '🚀' },
      { type: 'finish', reason: 'stop' },
    ])
  })

  it('streams reasoning from reasoning_content (DeepSeek, llama.cpp) and reasoning (Ollama, OpenRouter)', async () => {
    const server = await serve(
      sse(
        chunk({ role: 'assistant', reasoning_content: 'Think' }),
        chunk({ reasoning: 'ing.' }),
        chunk({ content: 'Done.' }, 'stop'),
      ),
    )
    expect(await collect(server)).toEqual([
      { type: 'reasoning', text: 'Think' },
      { type: 'reasoning', text: 'ing.' },
      { type: 'text', text: 'Done.' },
      { type: 'finish', reason: 'stop' },
    ])
  })

  it('assembles two tool calls from interleaved deltas by index and emits them complete before finish', async () => {
    const call = (index: number, fn: Record<string, string>, id?: string) =>
      chunk({
        tool_calls: [{ index, ...(id ? { id, type: 'function' } : {}), function: fn }],
      })
    const server = await serve(
      sse(
        chunk({ role: 'assistant', content: 'Let me compute.' }),
        call(0, { name: 'add', arguments: '' }, 'call_a'),
        call(1, { name: 'mul', arguments: '{"x"' }, 'call_b'),
        call(0, { arguments: '{"a":' }),
        call(1, { arguments: ':2,"y":3}' }),
        call(0, { arguments: '1,"b":2}' }),
        chunk({}, 'tool_calls'),
        usage(40, 20),
      ),
    )
    expect(await collect(server)).toEqual([
      { type: 'text', text: 'Let me compute.' },
      { type: 'tool-call', id: 'call_a', name: 'add', arguments: '{"a":1,"b":2}' },
      { type: 'tool-call', id: 'call_b', name: 'mul', arguments: '{"x":2,"y":3}' },
      { type: 'finish', reason: 'tool-calls', usage: { inputTokens: 40, outputTokens: 20 } },
    ])
  })

  it('a call without arguments gets {}; a call without an id gets call_<turn>_<step>_<index>', async () => {
    const server = await serve(
      sse(chunk({ tool_calls: [{ index: 0, function: { name: 'now' } }] }), chunk({}, 'tool_calls')),
    )
    expect(await collect(server, { turn: 3, step: 2 })).toEqual([
      { type: 'tool-call', id: 'call_3_2_0', name: 'now', arguments: '{}' },
      { type: 'finish', reason: 'tool-calls' },
    ])
  })

  it("finish_reason 'length' finishes with max-tokens", async () => {
    const server = await serve(sse(chunk({ content: 'Once upon a' }), chunk({}, 'length'), usage(5, 3)))
    expect(await collect(server)).toEqual([
      { type: 'text', text: 'Once upon a' },
      { type: 'finish', reason: 'max-tokens', usage: { inputTokens: 5, outputTokens: 3 } },
    ])
  })

  it('completes at [DONE] and closes the connection even if the server keeps it open', async () => {
    const server = await serve((res) => {
      sseHead(res)
      res.write(event(chunk({ content: 'ok' }, 'stop')) + event('[DONE]'))
    })
    expect(await collect(server)).toEqual([
      { type: 'text', text: 'ok' },
      { type: 'finish', reason: 'stop' },
    ])
    await server.closed(0)
  })

  it('a server that ends the body after finish_reason without [DONE] still finishes', async () => {
    const server = await serve((res) => {
      sseHead(res)
      res.end(event(chunk({ content: 'ok' }, 'stop')))
    })
    expect(await collect(server)).toEqual([
      { type: 'text', text: 'ok' },
      { type: 'finish', reason: 'stop' },
    ])
  })
})

describe('openaiModel: failures are ModelRequestError', () => {
  it('429 with retry-after: status 429, retryAfterMs, and the server message', async () => {
    const server = await serve((res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '2' })
      res.end(JSON.stringify({ error: { message: 'Rate limit reached for requests', type: 'requests' } }))
    })
    const { events, error } = await failure(server)
    expect(events).toEqual([])
    expect(error).toBeInstanceOf(ModelRequestError)
    expect(error).toMatchObject({ name: 'ModelRequestError', status: 429, retryAfterMs: 2000 })
    expect((error as Error).message).toContain('429')
    expect((error as Error).message).toContain('Rate limit reached for requests')
  })

  it('429 with retry-after-ms prefers the precise header', async () => {
    const server = await serve((res) => {
      res.writeHead(429, { 'retry-after': '1', 'retry-after-ms': '250' })
      res.end('slow down')
    })
    const { error } = await failure(server)
    expect(error).toMatchObject({ status: 429, retryAfterMs: 250, body: 'slow down' })
    expect((error as Error).message).toContain('slow down')
  })

  it('500 with a JSON error body: status 500, the body error message, no retryAfterMs', async () => {
    const body = JSON.stringify({ error: { message: 'The server had an error', code: null } })
    const server = await serve((res) => {
      res.writeHead(500, { 'content-type': 'application/json' })
      res.end(body)
    })
    const { error } = await failure(server)
    expect(error).toBeInstanceOf(ModelRequestError)
    expect(error).toMatchObject({ status: 500, retryAfterMs: undefined, body })
    expect((error as Error).message).toMatch(/500 Internal Server Error: The server had an error/)
  })

  it('a connection destroyed mid-stream: the deltas so far, then an error with status undefined', async () => {
    const server = await serve(async (res) => {
      sseHead(res)
      res.write(event(chunk({ content: 'Partial ' })))
      res.write(event(chunk({ content: 'answer' })))
      await delay(20)
      res.socket?.destroy()
    })
    const { events, error } = await failure(server)
    expect(events).toEqual([
      { type: 'text', text: 'Partial ' },
      { type: 'text', text: 'answer' },
    ])
    expect(error).toBeInstanceOf(ModelRequestError)
    expect(error).toMatchObject({ status: undefined, retryAfterMs: undefined })
    expect((error as Error).message).toMatch(/connection broke while reading/)
  })

  it('a body that ends cleanly without finish_reason and without [DONE] is a dropped connection', async () => {
    const server = await serve((res) => {
      sseHead(res)
      res.end(event(chunk({ content: 'Partial' })))
    })
    const { events, error } = await failure(server)
    expect(events).toEqual([{ type: 'text', text: 'Partial' }])
    expect(error).toMatchObject({ name: 'ModelRequestError', status: undefined })
    expect((error as Error).message).toMatch(/ended before the model finished .*dropped mid-stream/)
  })

  it('malformed JSON in a data line fails the request', async () => {
    const server = await serve((res) => {
      sseHead(res)
      res.write(event(chunk({ content: 'ok' })))
      res.end(event('{"choices": [oops'))
    })
    const { events, error } = await failure(server)
    expect(events).toEqual([{ type: 'text', text: 'ok' }])
    expect(error).toBeInstanceOf(ModelRequestError)
    expect((error as Error).message).toMatch(/malformed JSON in a stream data line: \{"choices": \[oops/)
  })

  it('an error object inside a 200 stream fails the request with its message', async () => {
    const server = await serve(sse({ error: { message: 'Provider returned error', code: 502 } }))
    const { error } = await failure(server)
    expect(error).toMatchObject({ status: undefined })
    expect((error as Error).message).toMatch(/error mid-stream: Provider returned error/)
  })

  it('a refused connection: status undefined, a message naming the URL, the cause kept', async () => {
    const server = await serve(answer('unused'))
    const closedURL = server.baseURL
    await stopLastServer()
    const { error } = await failure({ ...server, baseURL: closedURL })
    expect(error).toBeInstanceOf(ModelRequestError)
    expect(error).toMatchObject({ status: undefined })
    expect((error as Error).message).toContain(`POST ${closedURL}/chat/completions failed`)
    expect((error as Error).message).toMatch(/ECONNREFUSED/)
    expect((error as Error).cause).toBeInstanceOf(Error)
  })
})

describe('openaiModel: abort', () => {
  it('an abort of request.signal mid-stream errors with the reason and the server sees the connection close', async () => {
    const server = await serve((res) => {
      sseHead(res)
      res.write(event(chunk({ content: 'Hello' })))
      // …and never finishes.
    })
    const controller = new AbortController()
    const reason = { kind: 'user' }
    const events: ModelEvent[] = []
    const result = lastValueFrom(
      from(model(server)(request({ signal: controller.signal }))).pipe(
        tap((e) => {
          events.push(e)
          controller.abort(reason)
        }),
      ),
    )
    await expect(result).rejects.toBe(reason)
    expect(events).toEqual([{ type: 'text', text: 'Hello' }])
    await server.closed(0)
  })

  it('an already-aborted signal errors with its reason and sends nothing', async () => {
    const server = await serve(answer('unused'))
    const controller = new AbortController()
    controller.abort('stop')
    await expect(collect(server, { signal: controller.signal })).rejects.toBe('stop')
    await delay(20)
    expect(server.received).toEqual([])
  })

  it('nothing is sent before subscription; unsubscribing closes the connection', async () => {
    const server = await serve((res) => {
      sseHead(res)
      res.write(event(chunk({ content: 'Hello' })))
    })
    const events$ = from(model(server)(request()))
    await delay(20)
    expect(server.received).toEqual([])
    const first = new Promise<ModelEvent>((resolve) => {
      const subscription = events$.subscribe((e) => {
        resolve(e)
        queueMicrotask(() => subscription.unsubscribe())
      })
    })
    expect(await first).toEqual({ type: 'text', text: 'Hello' })
    await server.closed(0)
  })
})

describe('openaiModel: the request', () => {
  it('maps system, messages and tools to the Chat Completions body, with headers, auth and a custom fetch', async () => {
    const server = await serve(answer('ok'))
    const fetched: string[] = []
    const customFetch: typeof fetch = (input, init) => {
      fetched.push(String(input))
      return fetch(input, init)
    }
    const messages: Message[] = [
      user('What is 1+2 and 2*3?'),
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Two tools.' },
          { type: 'text', text: 'Computing.' },
          { type: 'tool-call', id: 'call_a', name: 'add', arguments: '{"a":1,"b":2}' },
          { type: 'tool-call', id: 'call_b', name: 'mul', arguments: '{"x":2,"y":3}' },
        ],
      },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'call_a', content: [{ type: 'text', text: '3' }] }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_b',
            content: [
              { type: 'text', text: 'six' },
              { type: 'tool-call', id: 'x', name: 'y', arguments: '{}' },
            ],
            isError: true,
            code: 'TOOL_ERROR',
          },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool-call', id: 'call_c', name: 'now', arguments: '{}' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Thanks.' },
          { type: 'text', text: 'Now explain.' },
        ],
      },
    ]
    const parameters = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { a: { type: 'number' } },
    }
    await collect(
      { ...server, baseURL: `${server.baseURL}/` },
      { system: 'Be brief.', messages, tools: [{ name: 'add', description: 'Adds.', parameters }] },
      {
        apiKey: 'sk-test',
        headers: { 'x-extra': 'yes', 'openai-organization': 'org-1' },
        fetch: customFetch,
        temperature: 0.2,
        maxTokens: 100,
        extraBody: { reasoning_effort: 'low' },
      },
    )
    expect(fetched).toEqual([`${server.baseURL}/chat/completions`])
    const [received] = server.received
    expect(received?.method).toBe('POST')
    expect(received?.url).toBe('/v1/chat/completions')
    expect(received?.headers).toMatchObject({
      authorization: 'Bearer sk-test',
      'content-type': 'application/json',
      accept: 'text/event-stream',
      'x-extra': 'yes',
      'openai-organization': 'org-1',
    })
    expect(received?.body).toEqual({
      model: 'test-model',
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
      max_tokens: 100,
      reasoning_effort: 'low',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'What is 1+2 and 2*3?' },
        {
          role: 'assistant',
          content: 'Computing.',
          tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'add', arguments: '{"a":1,"b":2}' } },
            { id: 'call_b', type: 'function', function: { name: 'mul', arguments: '{"x":2,"y":3}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_a', content: '3' },
        {
          role: 'tool',
          tool_call_id: 'call_b',
          content: 'six\n{"type":"tool-call","id":"x","name":"y","arguments":"{}"}',
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_c', type: 'function', function: { name: 'now', arguments: '{}' } }],
        },
        { role: 'user', content: 'Thanks.\nNow explain.' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'add',
            description: 'Adds.',
            parameters: { type: 'object', properties: { a: { type: 'number' } } },
          },
        },
      ],
    })
  })

  it('sends no Authorization header for apiKey: undefined (an unset environment variable)', async () => {
    const server = await serve(answer('ok'))
    await collect(server, {}, { apiKey: undefined })
    expect(server.received[0]?.headers.authorization).toBeUndefined()
  })

  it('omits tools, system, the Authorization header and the extras when there are none', async () => {
    const server = await serve(answer('ok'))
    await collect(server)
    const [received] = server.received
    expect(received?.headers.authorization).toBeUndefined()
    expect(received?.body).toEqual({
      model: 'test-model',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'hi' }],
    })
  })

  it('refuses a missing model name with an InvalidInputError (a TypeError) that says what to pass', () => {
    expect(() => openaiModel({ model: '' })).toThrow(TypeError)
    expect(() => openaiModel({ model: '' })).toThrow(
      /^openaiModel\(\): options\.model: expected the model name/,
    )
  })
})

describe('openaiModel: through an agent', () => {
  const record = (agent: ReturnType<typeof createAgent>) => {
    const log: string[] = []
    const live: AgentEvent[] = []
    const durable: SessionEvent[] = []
    agent.events$.subscribe((e) => {
      live.push(e)
      if (e.type !== 'agent/stream/delta') log.push(label(e))
    })
    agent.transcript$.subscribe((e) => {
      durable.push(e)
      log.push(label(e))
    })
    return { log, live, durable }
  }

  it('runs a two-step turn: a tool call, then the answer; the transcript and the second request are right', async () => {
    const server = await serve(
      inTurn(
        sse(
          chunk({
            role: 'assistant',
            content: null,
            tool_calls: [
              { index: 0, id: 'call_1', type: 'function', function: { name: 'add', arguments: '' } },
            ],
          }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a":2,' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '"b":3}' } }] }),
          chunk({}, 'tool_calls'),
          usage(30, 10),
        ),
        sse(chunk({ content: 'The sum ' }), chunk({ content: 'is 5.' }), chunk({}, 'stop'), usage(50, 5)),
      ),
    )
    const add = defineTool({
      name: 'add',
      description: 'Adds two numbers.',
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => a + b,
    })
    const agent = createAgent({
      model: openaiModel({ baseURL: server.baseURL, model: 'test-model' }),
      instructions: 'You add numbers.',
      tools: [add],
      scheduler: asapScheduler,
    })
    const { log, live, durable } = record(agent)
    agent.followup('What is 2+3?')
    await agent.whenIdle()
    expect(log).toEqual([
      'enqueue(What is 2+3?,queued)',
      'running',
      'dequeue(What is 2+3?)',
      'turn/start(1)',
      'user(What is 2+3?)',
      'step/start(1.1)',
      'assistant(add())',
      'tool/start(call_1)',
      'tool/end(call_1)',
      'tool/call(add)',
      'tool/result(call_1)',
      'step/end(1.1)',
      'step/start(1.2)',
      'assistant(The sum is 5.)',
      'step/end(1.2)',
      'turn/end(1,completed)',
      'settled(1,completed)',
      'idle',
    ])
    expect(live.flatMap((e) => (e.type === 'agent/stream/delta' ? [e.text] : []))).toEqual([
      'The sum ',
      'is 5.',
    ])
    expect(durable.flatMap((e) => (e.type === 'assistant/message' ? [e.data] : []))).toEqual([
      {
        turn: 1,
        step: 1,
        content: [{ type: 'tool-call', id: 'call_1', name: 'add', arguments: '{"a":2,"b":3}' }],
        usage: { inputTokens: 30, outputTokens: 10 },
      },
      {
        turn: 1,
        step: 2,
        content: [{ type: 'text', text: 'The sum is 5.' }],
        usage: { inputTokens: 50, outputTokens: 5 },
      },
    ])
    expect(agent.session.messages()).toEqual([
      user('What is 2+3?'),
      {
        role: 'assistant',
        content: [{ type: 'tool-call', id: 'call_1', name: 'add', arguments: '{"a":2,"b":3}' }],
      },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'call_1', content: [{ type: 'text', text: '5' }] }],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'The sum is 5.' }] },
    ])
    expect(bodyOf(server, 1)?.messages).toEqual([
      { role: 'system', content: 'You add numbers.' },
      { role: 'user', content: 'What is 2+3?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '5' },
    ])
    expect(bodyOf(server, 0)?.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'add',
          description: 'Adds two numbers.',
          parameters: expect.objectContaining({ type: 'object', required: ['a', 'b'] }),
        },
      },
    ])
    await agent.dispose()
  })

  it('a 429 surfaces as agent/error with the ModelRequestError, and requestError can retry()', async () => {
    const server = await serve(
      inTurn((res) => {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' })
        res.end(JSON.stringify({ error: { message: 'Rate limit reached' } }))
      }, answer('Recovered.')),
    )
    const seen: unknown[] = []
    const agent = createAgent({
      model: openaiModel({ baseURL: server.baseURL, model: 'test-model' }),
      scheduler: asapScheduler,
      maxRetries: 0, // R24 through the requestError hook: the agent's own retries (R117) are off
      hooks: {
        requestError: ({ agent, error }) => {
          seen.push(error)
          if (error instanceof ModelRequestError && error.status === 429) agent.retry()
        },
      },
    })
    const { log, live } = record(agent)
    agent.followup('go')
    await agent.whenIdle()
    expect(seen).toHaveLength(1)
    expect(seen[0]).toBeInstanceOf(ModelRequestError)
    expect(seen[0]).toMatchObject({ status: 429, retryAfterMs: 1000 })
    expect(live.find((e) => e.type === 'agent/error')).toEqual({
      type: 'agent/error',
      agentId: agent.id,
      turn: 1,
      step: 1,
      error: seen[0],
    })
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
})
