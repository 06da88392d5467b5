/**
 * `steerable/openai` bounds every wait on the server: `headersTimeoutMs` until the response headers
 * arrive, `idleTimeoutMs` between two chunks. Real servers on 127.0.0.1 with small timeouts; a real
 * child process checks that no timer outlives its request.
 */
import { asapScheduler, from, lastValueFrom, tap, toArray } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import {
  type AgentEvent,
  createAgent,
  InvalidInputError,
  type ModelEvent,
  type ModelRequest,
} from '../../src/index.js'
import { ModelRequestError, type OpenAIModelOptions, openaiModel } from '../../src/openai.js'
import { startChild } from '../support/childProcesses.js'
import {
  answer,
  chunk,
  closeServers,
  delay,
  event,
  inTurn,
  serve,
  sseHead,
  type TestServer,
} from '../support/openaiServer.js'

afterEach(closeServers)

const request = (): ModelRequest => ({
  agentId: 'agent-1',
  turn: 1,
  step: 1,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  tools: [],
  signal: new AbortController().signal,
})

/** The events before the request ended, and its error (`undefined` when it completed). */
const run = async (server: TestServer, options: Partial<OpenAIModelOptions>) => {
  const events: ModelEvent[] = []
  const model = openaiModel({ baseURL: server.baseURL, model: 'm', ...options })
  const error = await lastValueFrom(
    from(model(request())).pipe(
      tap((e) => events.push(e)),
      toArray(),
    ),
  ).then(
    () => undefined,
    (e: unknown) => e,
  )
  return { events, error }
}

describe('openaiModel: headersTimeoutMs and idleTimeoutMs', () => {
  it('no response headers within headersTimeoutMs: a retryable ModelRequestError that names the option; the request is aborted', async () => {
    const server = await serve(() => {
      // Reads the request, never answers.
    })
    const { events, error } = await run(server, { headersTimeoutMs: 200 })
    expect(events).toEqual([])
    expect(error).toBeInstanceOf(ModelRequestError)
    expect(error).toMatchObject({ status: undefined, retryAfterMs: undefined })
    expect((error as Error).message).toBe(
      `openaiModel: POST ${server.baseURL}/chat/completions got no response headers within 200 ms (headersTimeoutMs); ` +
        'retrying the request may help, or raise openaiModel({ headersTimeoutMs }) for a server that takes longer to start answering (a long prompt on a slow machine)',
    )
    await server.closed(0)
  })

  it('a stream silent for idleTimeoutMs fails after its deltas; keep-alive comments count as life', async () => {
    const stalled = await serve((res) => {
      sseHead(res)
      res.write(event(chunk({ content: 'Partial' })))
    })
    const { events, error } = await run(stalled, { idleTimeoutMs: 200 })
    expect(events).toEqual([{ type: 'text', text: 'Partial' }])
    expect(error).toBeInstanceOf(ModelRequestError)
    expect(error).toMatchObject({ status: undefined })
    expect((error as Error).message).toMatch(
      /the answer to POST \S+ stalled: nothing arrived for 200 ms \(idleTimeoutMs\); retrying the request may help, or raise openaiModel\(\{ idleTimeoutMs \}\)/,
    )
    await stalled.closed(0)

    const pinging = await serve(async (res) => {
      sseHead(res)
      // At least 2.5 s without an event, but a byte every 100 ms: a 20-fold margin under the
      // 2 s idle limit, so a loaded machine that delays a write cannot make it look stalled.
      for (let i = 0; i < 25; i++) {
        res.write(': keep-alive\n\n')
        await delay(100)
      }
      res.end(event(chunk({ content: 'ok' }, 'stop')) + event('[DONE]'))
    })
    expect(await run(pinging, { idleTimeoutMs: 2_000 })).toEqual({
      events: [
        { type: 'text', text: 'ok' },
        { type: 'finish', reason: 'stop' },
      ],
      error: undefined,
    })
  })

  it('R24: a stalled stream through an agent is agent/error, and requestError can retry()', async () => {
    const server = await serve(
      inTurn((res) => {
        sseHead(res)
        res.write(event(chunk({ content: 'Hel' })))
      }, answer('Hello.')),
    )
    const agent = createAgent({
      model: openaiModel({ baseURL: server.baseURL, model: 'm', idleTimeoutMs: 200 }),
      scheduler: asapScheduler,
      hooks: {
        requestError: ({ agent, error }) => {
          if (error instanceof ModelRequestError && error.status === undefined) agent.retry()
        },
      },
    })
    const live: AgentEvent[] = []
    agent.events$.subscribe((e) => live.push(e))
    agent.followup('hi')
    await agent.whenIdle()
    const errors = live.flatMap((e) => (e.type === 'agent/error' ? [e.error] : []))
    expect(errors).toHaveLength(1)
    expect((errors[0] as Error).message).toMatch(/idleTimeoutMs/)
    expect(agent.session.messages().at(-1)).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'Hello.' }],
    })
    await agent.dispose()
  })

  it.each([
    ['headersTimeoutMs', 0],
    ['idleTimeoutMs', -5],
    ['idleTimeoutMs', Number.NaN],
    ['headersTimeoutMs', Number.POSITIVE_INFINITY],
    ['idleTimeoutMs', 2 ** 31],
    ['headersTimeoutMs', '200'],
  ])('%s: %o is refused with an InvalidInputError that gives the range', (name, value) => {
    expect(() => openaiModel({ model: 'm', [name]: value })).toThrow(InvalidInputError)
    expect(() => openaiModel({ model: 'm', [name]: value })).toThrow(
      new RegExp(`options\\.${name}: expected a number of milliseconds from 1 to 2147483647`),
    )
  })

  it('no timer outlives its request: a child process exits on its own after a timeout, a completion and an abort', async () => {
    // The pending timeouts are ten minutes: a child still alive after 20 s kept one.
    const child = startChild(process.execPath, ['--import', 'tsx', 'test/support/children/timeoutChild.ts'], {
      deadlineMs: 20_000,
      stdin: 'ignore',
    })
    const { code, signal, stdout, stderr } = await child.exit
    expect({ code, signal, stderr }).toEqual({ code: 0, signal: null, stderr: '' })
    const [timedOut, completed, aborted] = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(timedOut).toEqual({ error: expect.stringMatching(/nothing arrived for 300 ms \(idleTimeoutMs\)/) })
    expect(completed).toEqual({
      events: [
        { type: 'text', text: 'ok' },
        { type: 'finish', reason: 'stop' },
      ],
    })
    expect(aborted).toEqual({ error: 'cancelled' })
  }, 30_000)
})
