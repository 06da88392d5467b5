/**
 * `steerable/openai` on answers that are not what it asked for: an error body too large to quote
 * whole (or one that never ends), and a `200` that is not an event stream. The error says what
 * came back, bounded, and whether retrying can help.
 */
import { from, lastValueFrom, toArray } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import type { ModelRequest } from '../src/index.js'
import { ModelRequestError, openaiModel } from '../src/openai.js'
import { closeServers, serve, type TestServer } from './support/openaiServer.js'

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
