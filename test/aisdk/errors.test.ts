/**
 * `steerable/ai-sdk`: every kind of failure is a `ModelRequestError` (an `APICallError` thrown or
 * in an error part, what a provider reports mid-stream, a broken or unfinished stream, a malformed
 * part), and no error quotes the API key.
 */
import { APICallError } from '@ai-sdk/provider'
import { describe, expect, it } from 'vitest'
import { ModelRequestError } from '../../src/openai.js'
import { MockLanguageModelV4 } from '../support/aisdkModels.js'
import { answer, finish, type Part, text } from '../support/aisdkParts.js'
import { failure, modelOf, throwing } from '../support/aisdkRequests.js'

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

  it('an APICallError whose url holds a key (userinfo, ?key=): the url is shown without it, and an echo of it is redacted', async () => {
    const key = 'url-key-0123456789abcdef'
    const url = `https://me:${key}@api.example.com/v1/models/m:stream?alt=sse&key=${key}`
    const thrown = new APICallError({
      message: `Forbidden: ${url}`,
      url,
      requestBodyValues: {},
      statusCode: 403,
      responseBody: JSON.stringify({ error: { message: `key ${key} is not valid` } }),
    })
    const { error } = await failure(throwing(thrown))
    expect(`${error.message} ${error.body} ${String((error.cause as Error).message)}`).not.toContain(key)
    expect(error.message).toBe(
      'fromLanguageModel(mock-provider mock-model-id): https://[redacted]@api.example.com/v1/models/m:stream' +
        '?alt=[redacted]&key=[redacted] answered 403: Forbidden: https://[redacted]@api.example.com/v1/models/m:stream' +
        '?[redacted] (check the API key and headers)',
    )
  })
})
