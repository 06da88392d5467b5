/**
 * `steerable/ai-sdk` bounds every wait on the provider like `steerable/openai`: `headersTimeoutMs`
 * until `doStream` resolves, `idleTimeoutMs` between two parts of its stream, 120 000 ms each by
 * default. The waits before `doStream` resolves run in virtual time; the silences of a stream use
 * small timeouts and end on the adapter's own error, never on a sleep.
 */
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider'
import { asapScheduler, from } from 'rxjs'
import { TestScheduler } from 'rxjs/testing'
import { describe, expect, it } from 'vitest'
import { fromLanguageModel, ModelRequestError } from '../../src/aisdk.js'
import { type AgentEvent, createAgent, InvalidInputError, type SessionEvent } from '../../src/index.js'
import { MockLanguageModelV4 } from '../support/aisdkModels.js'
import { answer, finish, liveStream, text } from '../support/aisdkParts.js'
import { failure, request } from '../support/aisdkRequests.js'

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected))

/** A provider that never answers: its `doStream` never resolves. */
const unanswering = () => new MockLanguageModelV4({ doStream: () => new Promise(() => {}) })

/** A provider that answers and then stays silent: `stream-start` and these parts, then nothing. */
const silentAfter = (...parts: Parameters<ReturnType<typeof liveStream>['push']>) => {
  const streams: ReturnType<typeof liveStream>[] = []
  const model = new MockLanguageModelV4({
    doStream: async (options: LanguageModelV3CallOptions) => {
      const live = liveStream(options)
      streams.push(live)
      live.push({ type: 'stream-start', warnings: [] }, ...parts)
      return { stream: live.stream }
    },
  })
  return { model, streams }
}

const headersExpired = (ms: number) =>
  `fromLanguageModel(mock-provider mock-model-id): the provider did not start answering within ${ms} ms ` +
  '(headersTimeoutMs): doStream had not resolved; retrying the request may help, or raise ' +
  'fromLanguageModel(model, { headersTimeoutMs }) for a server that takes longer to start answering ' +
  '(a long prompt on a slow machine)'

const idleExpired = (ms: number) =>
  `fromLanguageModel(mock-provider mock-model-id): the answer stalled: no stream part arrived for ${ms} ms ` +
  '(idleTimeoutMs); retrying the request may help, or raise fromLanguageModel(model, { idleTimeoutMs }) ' +
  'for a model that stays silent longer (a long prompt or a long reasoning before it streams)'

const timedOut = (message: string) =>
  expect.objectContaining({ name: 'ModelRequestError', status: undefined, retryAfterMs: undefined, message })

describe('fromLanguageModel: headersTimeoutMs and idleTimeoutMs', () => {
  it('a doStream that never resolves fails after headersTimeoutMs (virtual time) and the provider sees the abort', () => {
    const model = unanswering()
    scheduler().run(({ expectObservable }) => {
      const adapter = fromLanguageModel(model, { headersTimeoutMs: 200 })
      expectObservable(from(adapter(request()))).toBe('200ms #', undefined, timedOut(headersExpired(200)))
    })
    expect(model.doStreamCalls[0]?.abortSignal?.aborted).toBe(true)
  })

  it('by default a doStream that never resolves fails after 120 000 ms, as openaiModel does (virtual time)', () => {
    const model = unanswering()
    scheduler().run(({ expectObservable }) => {
      expectObservable(from(fromLanguageModel(model)(request()))).toBe(
        '120000ms #',
        undefined,
        timedOut(headersExpired(120_000)),
      )
    })
  })

  it('a stream that never sends a part after stream-start fails after idleTimeoutMs; the stream is cancelled', async () => {
    const { model, streams } = silentAfter()
    const { events, error } = await failure(model, { idleTimeoutMs: 30 })
    expect(events).toEqual([])
    expect(error).toBeInstanceOf(ModelRequestError)
    expect(error).toEqual(timedOut(idleExpired(30)))
    await streams[0]?.cancelled
    expect(model.doStreamCalls[0]?.abortSignal?.aborted).toBe(true)
  })

  it('a stream that falls silent after its deltas fails after idleTimeoutMs, after the deltas', async () => {
    const { model } = silentAfter(...text('t', 'Partial'))
    const { events, error } = await failure(model, { idleTimeoutMs: 30, headersTimeoutMs: 60_000 })
    expect(events).toEqual([{ type: 'text', text: 'Partial' }])
    expect(error).toEqual(timedOut(idleExpired(30)))
  })

  it('R24: a stalled stream through an agent is agent/error, turn/end names the option, and requestError can retry()', async () => {
    const { model: stalled } = silentAfter(...text('t', 'Hel'))
    let calls = 0
    const model = new MockLanguageModelV4({
      doStream: async (options: LanguageModelV3CallOptions) =>
        calls++ === 0 ? stalled.doStream(options) : answer(text('t', 'Hello.'), finish('stop')),
    })
    const agent = createAgent({
      model: fromLanguageModel(model, { idleTimeoutMs: 30 }),
      scheduler: asapScheduler,
      hooks: {
        requestError: ({ agent, error }) => {
          if (error instanceof ModelRequestError && error.status === undefined) agent.retry()
        },
      },
    })
    const live: AgentEvent[] = []
    const durable: SessionEvent[] = []
    agent.events$.subscribe((e) => live.push(e))
    agent.transcript$.subscribe((e) => durable.push(e))
    agent.followup('hi')
    await agent.whenIdle()
    const errors = live.flatMap((e) => (e.type === 'agent/error' ? [e.error] : []))
    expect(errors).toEqual([timedOut(idleExpired(30))])
    const ends = durable.flatMap((e) => (e.type === 'turn/end' ? [JSON.stringify(e.data)] : []))
    expect(ends[0]).toContain('(idleTimeoutMs)')
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
  ])(
    '%s: %o is refused with an InvalidInputError that gives the range, as openaiModel does',
    (name, value) => {
      expect(() => fromLanguageModel(unanswering(), { [name]: value })).toThrow(InvalidInputError)
      expect(() => fromLanguageModel(unanswering(), { [name]: value })).toThrow(
        new RegExp(
          `^fromLanguageModel\\(\\): options\\.${name}: expected a number of milliseconds from 1 to 2147483647`,
        ),
      )
    },
  )
})
