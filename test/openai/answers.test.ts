/**
 * `steerable/openai` on answers that are not what it asked for: an error body too large to quote
 * whole (or one that never ends), and a `200` that is not an event stream. The error says what
 * came back, bounded, and whether retrying can help.
 */
import { from, lastValueFrom, toArray } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import type { ModelRequest } from '../../src/index.js'
import { ModelRequestError, openaiModel } from '../../src/openai.js'
import { closeServers, serve, type TestServer } from '../support/openaiServer.js'

afterEach(closeServers)

const request = (): ModelRequest => ({
  agentId: 'agent-1',
  turn: 1,
  step: 1,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  tools: [],
  signal: new AbortController().signal,
})

const failure = (server: TestServer): Promise<ModelRequestError> =>
  lastValueFrom(from(openaiModel({ baseURL: server.baseURL, model: 'm' })(request())).pipe(toArray())).then(
    () => {
      throw new Error('expected the request to fail')
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(ModelRequestError)
      return error as ModelRequestError
    },
  )

const fiveMB = 5 * 1024 * 1024

describe('openaiModel: a large error body is quoted in part, saying how much was cut', () => {
  it('a 5 MB JSON error message: 500 characters of it, and the exact count of bytes cut', async () => {
    const text = JSON.stringify({ error: { message: 'x'.repeat(fiveMB) } })
    const server = await serve((res) => {
      res.writeHead(500, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
      res.end(text)
    })
    const error = await failure(server)
    expect(error.status).toBe(500)
    expect(error.message.length).toBeLessThan(1000)
    expect(error.message).toContain(`answered 500 Internal Server Error: {"error":{"message":"xxx`)
    expect(error.message).toContain(`… [${text.length - 500} more bytes cut] (retry later)`)
    expect(error.body).toBe(`${text.slice(0, 500)}… [${text.length - 500} more bytes cut]`)
  })

  it('a 5 MB body without a length: the bytes cut are a lower bound', async () => {
    const server = await serve((res) => {
      res.writeHead(502, { 'content-type': 'text/plain' })
      for (let i = 0; i < 5; i++) res.write('y'.repeat(1024 * 1024))
      res.end()
    })
    const error = await failure(server)
    expect(error.status).toBe(502)
    expect(error.message.length).toBeLessThan(1000)
    expect(error.message).toMatch(/: y{500}… \[at least \d+ more bytes cut\] \(retry later\)$/)
    expect(error.body?.length).toBeLessThan(1000)
  })

  it('an error body that never ends: the error arrives after its first bytes and the connection closes', async () => {
    const server = await serve((res) => {
      res.writeHead(503, { 'content-type': 'text/plain' })
      const pump = setInterval(() => res.write('z'.repeat(64 * 1024)), 5)
      res.on('close', () => clearInterval(pump))
    })
    const error = await failure(server)
    expect(error.status).toBe(503)
    expect(error.message).toMatch(/: z{500}… \[at least \d+ more bytes cut\]/)
    await server.closed(0)
  })
})

describe('openaiModel: a 200 that is not an event stream says what came back', () => {
  it('an HTML page (a wrong baseURL): status 200, its content-type and start, not retryable', async () => {
    const page = `<!doctype html><html><head><title>Sign in</title></head><body>${'<p>…</p>'.repeat(fiveMB / 8)}</body></html>`
    const server = await serve((res) => {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-length': Buffer.byteLength(page),
      })
      res.end(page)
    })
    const error = await failure(server)
    expect(error).toMatchObject({ status: 200, retryAfterMs: undefined })
    expect(error.message).not.toMatch(/dropped|retrying the request may help/)
    expect(error.message).toContain(
      `expected a server-sent event stream from POST ${server.baseURL}/chat/completions, but the server answered 200 with content-type text/html; charset=utf-8: <!doctype html><html><head><title>Sign in</title>`,
    )
    expect(error.message).toMatch(/more bytes cut\]; retrying will not help: check baseURL/)
    expect(error.message.length).toBeLessThan(1000)
    expect(error.body?.startsWith('<!doctype html>')).toBe(true)
    await server.closed(0)
  })

  it('one JSON completion (a server that ignores stream: true): its start is quoted', async () => {
    const completion = JSON.stringify({
      object: 'chat.completion',
      choices: [{ message: { content: 'Hi' } }],
    })
    const server = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(completion)
    })
    const error = await failure(server)
    expect(error).toMatchObject({ status: 200, body: completion })
    expect(error.message).toContain(
      `answered 200 with content-type application/json: ${completion}; retrying will not help`,
    )
  })

  it('no content-type: read as an event stream; a body without any event reports how it started', async () => {
    const stream = await serve((res) => {
      res.writeHead(200)
      res.end('data: {"choices":[{"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n')
    })
    expect(
      await lastValueFrom(
        from(openaiModel({ baseURL: stream.baseURL, model: 'm' })(request())).pipe(toArray()),
      ),
    ).toEqual([
      { type: 'text', text: 'ok' },
      { type: 'finish', reason: 'stop' },
    ])
    const json = await serve((res) => {
      res.writeHead(200)
      res.end('{"object":"chat.completion","choices":[]}')
    })
    const error = await failure(json)
    expect(error).toMatchObject({ status: 200 })
    expect(error.message).toContain(
      'answered 200 with no content-type: {"object":"chat.completion","choices":[]}; retrying will not help',
    )
  })
})

describe('openaiModel: an event that never ends', () => {
  it('a data line longer than 16 Mi characters stops the stream with a ModelRequestError', async () => {
    const server = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      const chunk = 'x'.repeat(1024 * 1024)
      res.write('data: ')
      let sent = 0
      const more = (): void => {
        // Stop writing once the client has gone: the stream was stopped.
        while (sent < 40 && !res.destroyed) {
          sent++
          if (!res.write(chunk)) return void res.once('drain', more)
        }
        res.end()
      }
      more()
    })
    const error = await failure(server)
    expect(error.message).toMatch(/one event of the answer is longer than 16777216 characters/)
    expect(error.status).toBeUndefined()
  })
})
