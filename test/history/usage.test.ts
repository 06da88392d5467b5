/** R73 through the public API: every request's usage is recorded, estimated when none was sent. */
import { first, firstValueFrom, Subject, toArray } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { createAgent } from '../../src/agent/createAgent.js'
import type { Agent } from '../../src/contracts/agent.js'
import type { SessionEvent } from '../../src/contracts/events.js'
import type { ModelEvent } from '../../src/contracts/model.js'

const text = (t: string): ModelEvent => ({ type: 'text', text: t })
const stop = (usage?: {
  inputTokens: number
  outputTokens: number
  cachedInputTokens?: number
}): ModelEvent => (usage ? { type: 'finish', reason: 'stop', usage } : { type: 'finish', reason: 'stop' })

const stepStarted = (agent: Agent, step = 1) =>
  firstValueFrom(agent.transcript$.pipe(first((e) => e.type === 'step/start' && e.data.step === step)))

/** The usage each request recorded, in order: on its message, or on its step's end. */
const recorded = (events: readonly SessionEvent[]) =>
  events.flatMap((e) =>
    (e.type === 'assistant/message' || e.type === 'step/end') && e.data.usage ? [[e.type, e.data.usage]] : [],
  )

/** First request streams from `stream`; later ones answer `ok` with reported usage. */
const streaming = (stream: Subject<ModelEvent>) => {
  let n = 0
  return createAgent({
    model: () => (++n === 1 ? stream : [text('ok'), stop({ inputTokens: 50, outputTokens: 1 })]),
  })
}

describe('R73: usage on every request', () => {
  it('R73: reported usage is recorded as sent and summed, cached input tokens included', async () => {
    let n = 0
    const agent = createAgent({
      model: () => [
        text('answer'),
        stop(
          ++n === 1
            ? { inputTokens: 10, outputTokens: 4, cachedInputTokens: 6 }
            : { inputTokens: 20, outputTokens: 5 },
        ),
      ],
    })
    agent.followup('a')
    agent.followup('b')
    await agent.whenIdle()
    expect(recorded(agent.session.events)).toEqual([
      ['assistant/message', { inputTokens: 10, outputTokens: 4, cachedInputTokens: 6 }],
      ['assistant/message', { inputTokens: 20, outputTokens: 5 }],
    ])
    expect(agent.usage).toEqual({
      inputTokens: 30,
      outputTokens: 9,
      cachedInputTokens: 6,
      requests: 2,
      estimatedRequests: 0,
    })
  })

  it('R73, R68: a cut request with no usage sent is estimated from what streamed and marked', async () => {
    const stream = new Subject<ModelEvent>()
    const agent = streaming(stream)
    agent.followup('hello there') // 11 characters: 3 tokens of prompt
    await stepStarted(agent)
    stream.next(text('x'.repeat(41))) // 41 characters: 11 tokens
    agent.steer('stop', { interrupt: true })
    await agent.whenIdle()
    expect(recorded(agent.session.events)).toEqual([
      ['assistant/message', { inputTokens: 3, outputTokens: 11, estimated: true }],
      ['assistant/message', { inputTokens: 50, outputTokens: 1 }],
    ])
    expect(agent.usage).toMatchObject({
      inputTokens: 53,
      outputTokens: 12,
      requests: 2,
      estimatedRequests: 1,
    })
  })

  it('R73, R68: a request cut before any text records its usage on the step end', async () => {
    const stream = new Subject<ModelEvent>()
    const agent = streaming(stream)
    agent.followup('abcd')
    await stepStarted(agent)
    agent.steer('stop', { interrupt: true })
    await agent.whenIdle()
    const ends = agent.session.events.flatMap((e) => (e.type === 'step/end' ? [e.data] : []))
    expect(ends[0]).toEqual({
      turn: 1,
      step: 1,
      interrupted: true,
      usage: { inputTokens: 1, outputTokens: 0, estimated: true },
    })
  })

  it('R73, R69: usage the provider sent before the cut is kept, not estimated', async () => {
    const stream = new Subject<ModelEvent>()
    const agent = streaming(stream)
    agent.followup('go')
    await stepStarted(agent)
    stream.next({ type: 'usage', usage: { inputTokens: 900, outputTokens: 0 } })
    stream.next(text('partial'))
    stream.next({ type: 'usage', usage: { inputTokens: 900, outputTokens: 2 } })
    agent.steer('stop', { interrupt: true })
    await agent.whenIdle()
    expect(recorded(agent.session.events)[0]).toEqual([
      'assistant/message',
      { inputTokens: 900, outputTokens: 2 },
    ])
    expect(agent.usage.estimatedRequests).toBe(0)
  })

  it('R73, R25: a cancelled request records estimated usage on its step end', async () => {
    const stream = new Subject<ModelEvent>()
    const agent = streaming(stream)
    agent.followup('go')
    await stepStarted(agent)
    stream.next(text('12345678'))
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
    expect(recorded(agent.session.events)).toEqual([
      ['step/end', { inputTokens: 1, outputTokens: 2, estimated: true }],
    ])
    expect(agent.usage).toMatchObject({ requests: 1, estimatedRequests: 1, outputTokens: 2 })
  })

  it('R73, R24: a request that fails after it streamed records estimated usage on its step end', async () => {
    const stream = new Subject<ModelEvent>()
    const agent = streaming(stream)
    agent.events$.subscribe() // the agent/error is expected
    agent.followup('go')
    await stepStarted(agent)
    stream.next(text('1234'))
    stream.error(new Error('connection reset'))
    await agent.whenIdle()
    expect(recorded(agent.session.events)).toEqual([
      ['step/end', { inputTokens: 1, outputTokens: 1, estimated: true }],
    ])
  })

  it('R73: the total survives reopening, and a log written before usage was recorded counts its requests as estimated', async () => {
    const agent = createAgent({ model: () => [text('hi'), stop({ inputTokens: 7, outputTokens: 1 })] })
    agent.followup('a')
    await agent.whenIdle()
    const history = agent.session.events
    expect(createAgent({ model: () => [], history }).usage).toEqual(agent.usage)
    const old = history.map((e) =>
      e.type === 'assistant/message'
        ? { ...e, data: { turn: e.data.turn, step: e.data.step, content: e.data.content } }
        : e,
    ) as SessionEvent[]
    expect(createAgent({ model: () => [], history: old }).usage).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cachedInputTokens: 0,
      requests: 1,
      estimatedRequests: 1,
    })
  })

  it('R73: usage$ emits the total on subscribe, then after each change, and completes on dispose', async () => {
    const agent = createAgent({ model: () => [text('hi'), stop({ inputTokens: 7, outputTokens: 1 })] })
    const totals = firstValueFrom(agent.usage$.pipe(toArray()))
    agent.followup('a')
    await agent.whenIdle()
    await agent.dispose()
    expect((await totals).map((u) => [u.requests, u.inputTokens, u.estimatedRequests])).toEqual([
      [0, 0, 0],
      [1, 0, 1],
      [1, 7, 0],
    ])
  })
})
