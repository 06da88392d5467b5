/**
 * `steerable/openai` with credentials in its `baseURL`: a key in the query string (`?api-key=…`,
 * `?key=…`, `?token=…`) or in the userinfo (`https://user:pass@host`) is redacted like the
 * `apiKey` option, in errors, `turn/end` and the session file; a query is kept after the path.
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
  type ModelRequest,
  type SessionEvent,
} from '../../src/index.js'
import { ModelRequestError, type OpenAIModelOptions, openaiModel } from '../../src/openai.js'
import {
  answer,
  chunk,
  closeServers,
  event,
  type Handler,
  inTurn,
  serve,
  sseHead,
} from '../support/openaiServer.js'

afterEach(closeServers)

const secret = 'qs-secret-0123456789abcdef'

const request = (): ModelRequest => ({
  agentId: 'agent-1',
  turn: 1,
  step: 1,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  tools: [],
  signal: new AbortController().signal,
})

const failureOf = (options: OpenAIModelOptions): Promise<ModelRequestError> =>
  lastValueFrom(from(openaiModel(options)(request())).pipe(toArray())).then(
    () => {
      throw new Error('expected the request to fail')
    },
    (error: unknown) => error as ModelRequestError,
  )

/** Every string reachable from a value: own properties (enumerable or not), `cause` chains, arrays. */
const strings = (value: unknown, seen = new Set<unknown>()): string[] => {
  if (typeof value === 'string') return [value]
  if (typeof value !== 'object' || value === null || seen.has(value)) return []
  seen.add(value)
  return Object.getOwnPropertyNames(value).flatMap((name) =>
    strings((value as Record<string, unknown>)[name], seen),
  )
}
const leaks = (value: unknown, text: string) => strings(value).filter((s) => s.includes(text))

/** A 401 that echoes the URL it was asked for, query string and all, and then its value alone. */
const echoURL =
  (status: number): Handler =>
  (res, req) => {
    res.writeHead(status, { 'content-type': 'application/json' })
    const query = new URL(req.url ?? '', 'http://x').searchParams
    const values = [...query.values()].join(' ')
    res.end(JSON.stringify({ error: { message: `no access for ${req.url} (saw ${values})` } }))
  }

describe('openaiModel: credentials in baseURL never leave in an error, an event or the session file', () => {
  it('R24: a key in the query string, echoed by a 401, mid-stream and in a malformed line: redacted everywhere', async () => {
    const server = await serve(
      inTurn(
        echoURL(401),
        (res, req) => {
          sseHead(res)
          res.end(event({ error: { message: `rejected ${req.url}` } }))
        },
        (res, req) => {
          sseHead(res)
          res.write(event(chunk({ content: 'ok' })))
          res.end(event(`{"oops": "${req.url}`))
        },
        answer('Fine.'),
      ),
    )
    const dir = mkdtempSync(join(tmpdir(), 'steerable-url-secrets-'))
    try {
      const path = join(dir, 'session.jsonl')
      const agent = createAgent({
        model: openaiModel({
          baseURL: `${server.baseURL}?api-version=2024-10-21&api-key=${secret}`,
          model: 'm',
        }),
        store: fileStore(path),
        scheduler: asapScheduler,
      })
      const live: AgentEvent[] = []
      const durable: SessionEvent[] = []
      agent.events$.subscribe((e) => live.push(e))
      agent.transcript$.subscribe((e) => durable.push(e))
      for (const text of ['a', 'b', 'c', 'd']) {
        agent.followup(text)
        await agent.whenIdle()
      }
      await agent.dispose()

      // The query stays on the request, after the path.
      expect(server.received.map((r) => r.url)).toEqual(
        [0, 1, 2, 3].map(() => `/v1/chat/completions?api-version=2024-10-21&api-key=${secret}`),
      )
      const errors = live.flatMap((e) => (e.type === 'agent/error' ? [e.error] : []))
      expect(errors).toHaveLength(3)
      for (const error of errors) expect(error).toBeInstanceOf(ModelRequestError)
      expect(leaks(live, secret)).toEqual([])
      expect(durable.map((e) => JSON.stringify(e)).filter((json) => json.includes(secret))).toEqual([])
      expect(readFileSync(path, 'utf8')).not.toContain(secret)
      const ends = durable.flatMap((e) => (e.type === 'turn/end' ? [JSON.stringify(e.data)] : []))
      expect(ends).toHaveLength(4)
      expect(ends.slice(0, 3).join('\n')).toContain('[redacted]')
      // The URL as errors show it: every query value blotted out, the names still there.
      const shown = `POST ${server.baseURL}/chat/completions?api-version=[redacted]&api-key=[redacted]`
      expect((errors[0] as Error).message).toContain(`${shown} answered 401 Unauthorized: no access for`)
      expect((errors[0] as Error).message).toContain('saw 2024-10-21 [redacted]')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it.each([
    ['key', `key=${secret}`],
    ['token', `token=${secret}`],
    ['access_token, after another parameter', `v=1&access_token=${secret}`],
    ['sig (a shared access signature)', `sig=${secret}`],
    ['code (a function key)', `code=${secret}`],
    ['api_key URL-encoded', `api_key=${encodeURIComponent(`${secret}/+=`)}`],
  ])('a key in ?%s: the error quotes no part of it', async (_name, query) => {
    const server = await serve(echoURL(403))
    const error = await failureOf({ baseURL: `${server.baseURL}?${query}`, model: 'm' })
    expect(error).toBeInstanceOf(ModelRequestError)
    expect(error.status).toBe(403)
    expect(leaks(error, secret)).toEqual([])
    expect(error.message).toContain('[redacted]')
  })

  it.each([
    ['user:password', `user:${secret}@`, [secret, `user:${secret}`]],
    ['a token as the user name', `${secret}@`, [secret]],
    ['an encoded password', `me:${encodeURIComponent(`${secret}@/`)}@`, [secret]],
  ])(
    'userinfo with %s: fetch refuses the URL, and its error quotes none of it',
    async (_what, userinfo, hidden) => {
      const server = await serve(answer('never'))
      const baseURL = server.baseURL.replace('http://', `http://${userinfo}`)
      const error = await failureOf({ baseURL, model: 'm' })
      expect(error).toBeInstanceOf(ModelRequestError)
      for (const text of hidden) expect(leaks(error, text)).toEqual([])
      expect(error.message).toContain(`POST http://[redacted]@127.0.0.1:`)
      expect(server.received).toEqual([])
    },
  )

  it('R24: userinfo in baseURL, through an agent: neither turn/end nor the session file holds it', async () => {
    const server = await serve(answer('never'))
    const dir = mkdtempSync(join(tmpdir(), 'steerable-url-secrets-'))
    try {
      const path = join(dir, 'session.jsonl')
      const baseURL = server.baseURL.replace('http://', `http://gateway:${secret}@`)
      const agent = createAgent({
        model: openaiModel({ baseURL, model: 'm' }),
        store: fileStore(path),
        scheduler: asapScheduler,
      })
      const durable: SessionEvent[] = []
      agent.transcript$.subscribe((e) => durable.push(e))
      agent.followup('hi')
      await agent.whenIdle()
      await agent.dispose()
      const ends = durable.flatMap((e) => (e.type === 'turn/end' ? [JSON.stringify(e.data)] : []))
      expect(ends).toHaveLength(1)
      expect(ends[0]).toContain('http://[redacted]@127.0.0.1:')
      for (const text of [secret, 'gateway:']) {
        expect(ends[0]).not.toContain(text)
        expect(readFileSync(path, 'utf8')).not.toContain(text)
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a fetch of its own that sends userinfo: an echo of the URL is redacted', async () => {
    const echoing: typeof fetch = (input) =>
      Promise.resolve(
        new Response(JSON.stringify({ error: { message: `bad credentials in ${String(input)}` } }), {
          status: 401,
          headers: { 'content-type': 'application/json' },
        }),
      )
    const error = await failureOf({
      baseURL: `https://alice:${secret}@proxy.example/v1`,
      model: 'm',
      fetch: echoing,
    })
    expect(leaks(error, secret)).toEqual([])
    expect(error.message).toBe(
      'openaiModel: POST https://[redacted]@proxy.example/v1/chat/completions answered 401: bad credentials in ' +
        'https://[redacted]@proxy.example/v1/chat/completions (check the API key and headers)',
    )
  })
})
