/**
 * `steerable/openai` never lets the API key (or another credential header it sends) into an error,
 * an event or the saved transcript, whatever the server or the fetch echoes back; a key that cannot
 * be sent in a header is refused when the adapter is built, without printing it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { asapScheduler, from, lastValueFrom, toArray } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import {
  type AgentEvent,
  createAgent,
  fileStore,
  InvalidInputError,
  type ModelRequest,
  type SessionEvent,
} from '../../src/index.js'
import { ModelRequestError, type OpenAIModelOptions, openaiModel } from '../../src/openai.js'
import { chunk, closeServers, event, inTurn, serve, sseHead } from '../support/openaiServer.js'

afterEach(closeServers)

const key = 'sk-test-0123456789abcdefSECRET'
const otherSecret = 'azure-key-9876543210zyxwvuSECRET'

/** Every string reachable from a value: own properties (enumerable or not), `cause` chains, arrays. */
const strings = (value: unknown, seen = new Set<unknown>()): string[] => {
  if (typeof value === 'string') return [value]
  if (typeof value !== 'object' || value === null || seen.has(value)) return []
  seen.add(value)
  return Object.getOwnPropertyNames(value).flatMap((name) =>
    strings((value as Record<string, unknown>)[name], seen),
  )
}
const leaks = (value: unknown, secret: string) => strings(value).filter((s) => s.includes(secret))

/** Echoes the request headers (the Authorization header with the key in it) inside an error. */
const echoStatus =
  (status: number) =>
  (res: import('node:http').ServerResponse, request: { headers: Record<string, unknown> }) => {
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(
      JSON.stringify({ error: { message: `Invalid header ${String(request.headers.authorization)}` } }) +
        JSON.stringify(request.headers),
    )
  }

const request = (over: Partial<ModelRequest> = {}): ModelRequest => ({
  agentId: 'agent-1',
  turn: 1,
  step: 1,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  tools: [],
  signal: new AbortController().signal,
  ...over,
})

const failureOf = (options: OpenAIModelOptions): Promise<unknown> =>
  lastValueFrom(from(openaiModel(options)(request())).pipe(toArray())).then(
    () => new Error('expected the request to fail'),
    (error: unknown) => error,
  )

describe('openaiModel: the API key never leaves in an error, an event or the transcript', () => {
  it('R24: an agent whose server echoes the key in a 401, in a mid-stream error and in a malformed line', async () => {
    const server = await serve(
      inTurn(
        echoStatus(401),
        (res, req) => {
          sseHead(res)
          res.end(event({ error: { message: `rejected ${String(req.headers.authorization)}` } }))
        },
        (res, req) => {
          sseHead(res)
          res.write(event(chunk({ content: 'ok' })))
          res.end(event(`{"oops": "${String(req.headers.authorization)}`))
        },
      ),
    )
    const dir = mkdtempSync(join(tmpdir(), 'steerable-secrets-'))
    try {
      const path = join(dir, 'session.jsonl')
      const hookErrors: unknown[] = []
      const agent = createAgent({
        model: openaiModel({ baseURL: server.baseURL, model: 'm', apiKey: key }),
        store: fileStore(path),
        scheduler: asapScheduler,
        hooks: { requestError: ({ error }) => void hookErrors.push(error) },
      })
      const live: AgentEvent[] = []
      const durable: SessionEvent[] = []
      agent.events$.subscribe((e) => live.push(e))
      agent.transcript$.subscribe((e) => durable.push(e))
      for (const text of ['a', 'b', 'c']) {
        agent.followup(text)
        await agent.whenIdle()
      }
      await agent.dispose()

      expect(server.received.map((r) => r.headers.authorization)).toEqual(
        [0, 1, 2].map(() => `Bearer ${key}`),
      )
      const errors = live.filter((e) => e.type === 'agent/error')
      expect(errors).toHaveLength(3)
      expect(hookErrors).toHaveLength(3)
      for (const e of errors) expect(e).toMatchObject({ error: expect.any(ModelRequestError) })
      expect(leaks(errors, key)).toEqual([])
      expect(leaks(hookErrors, key)).toEqual([])
      expect(errors.map((e) => JSON.stringify(e)).filter((json) => json.includes(key))).toEqual([])
      expect(leaks(live, key)).toEqual([])
      expect(durable.map((e) => JSON.stringify(e)).filter((json) => json.includes(key))).toEqual([])
      expect(readFileSync(path, 'utf8')).not.toContain(key)
      // What the server said is still there, with the key blotted out.
      const [first, second, third] = errors.map((e) => (e.type === 'agent/error' ? e.error : undefined))
      expect((first as Error).message).toContain('Invalid header Bearer [redacted]')
      expect((first as ModelRequestError).body).toContain('Bearer [redacted]')
      expect((second as Error).message).toContain('mid-stream: rejected Bearer [redacted]')
      expect((third as Error).message).toContain(
        'malformed JSON in a stream data line: {"oops": "Bearer [redacted]',
      )
      const ends = durable.flatMap((e) => (e.type === 'turn/end' ? [e.data.reason] : []))
      expect(ends).toHaveLength(3)
      expect(JSON.stringify(ends)).toContain('[redacted]')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('the value of a credential header passed in headers is redacted like the key', async () => {
    const server = await serve(echoStatus(403))
    const error = await failureOf({
      baseURL: server.baseURL,
      model: 'm',
      headers: { 'api-key': otherSecret, 'x-trace': 'visible-trace-id' },
    })
    expect(error).toBeInstanceOf(ModelRequestError)
    expect(leaks(error, otherSecret)).toEqual([])
    expect((error as ModelRequestError).body).toContain('visible-trace-id')
    expect((error as ModelRequestError).body).toContain('[redacted]')
  })

  it('a fetch that fails with the key in its message and in its cause: both are redacted', async () => {
    const failing: typeof fetch = (_input, init) => {
      const auth = new Headers(init?.headers).get('authorization')
      return Promise.reject(new TypeError('fetch failed', { cause: new Error(`proxy refused ${auth}`) }))
    }
    const error = await failureOf({
      baseURL: 'http://127.0.0.1:9/v1',
      model: 'm',
      apiKey: key,
      fetch: failing,
    })
    expect(error).toBeInstanceOf(ModelRequestError)
    expect((error as Error).message).toContain('proxy refused Bearer [redacted]')
    expect((error as Error).cause).toBeInstanceOf(TypeError)
    expect(leaks(error, key)).toEqual([])
  })
})

describe('openaiModel: a key or header that cannot be sent is refused when the adapter is built', () => {
  it.each([
    ['a trailing newline (a key read from a file)', `${key}\n`],
    ['a line break inside', `sk-test-01234\r\n56789abcdefSECRET`],
  ])(
    'an apiKey with %s: an InvalidInputError that says to trim it and does not print the key',
    (_what, apiKey) => {
      const build = () => openaiModel({ model: 'm', apiKey })
      expect(build).toThrow(InvalidInputError)
      expect(build).toThrow(/options\.apiKey: contains a line break.*trim/)
      expect(build).toThrow(expect.objectContaining({ message: expect.not.stringContaining('SECRET') }))
    },
  )

  it('an apiKey with a character a header cannot carry: an InvalidInputError that does not print the key', () => {
    const build = () => openaiModel({ model: 'm', apiKey: 'sk-test—SECRET' })
    expect(build).toThrow(/options\.apiKey: contains a character that cannot be sent in an HTTP header/)
    expect(build).toThrow(expect.objectContaining({ message: expect.not.stringContaining('SECRET') }))
  })

  it('a header value with a line break: an InvalidInputError that names the header, not the value', () => {
    const build = () => openaiModel({ model: 'm', headers: { 'x-api-key': 'abc\nSECRET' } })
    expect(build).toThrow(/options\.headers\.x-api-key: contains a line break/)
    expect(build).toThrow(expect.objectContaining({ message: expect.not.stringContaining('SECRET') }))
  })

  it('every bad option is listed at once, in one InvalidInputError that still prints no key', () => {
    const build = () =>
      openaiModel({ model: '', apiKey: 'sk-SECRET\n', headers: { 'x-a': 'SECRET\r' }, idleTimeoutMs: 0 })
    expect(build).toThrow(InvalidInputError)
    expect(build).toThrow(
      /^openaiModel\(\): options\.model: expected the model name.*; options\.apiKey: contains a line break.*; options\.headers\.x-a: contains a line break.*; options\.idleTimeoutMs: expected a number of milliseconds/,
    )
    expect(build).toThrow(expect.objectContaining({ message: expect.not.stringContaining('SECRET') }))
  })

  it('an apiKey that is not a string is refused', () => {
    expect(() => openaiModel({ model: 'm', apiKey: 42 as unknown as string })).toThrow(
      /options\.apiKey: expected a string/,
    )
  })
})
