/**
 * The pure parts of `steerable/openai`: the Chat Completions stream reducer (tables of
 * `[state, input, expected]` over deep-frozen inputs), the `chatEvents` operator in virtual time,
 * and `retryAfterMs`.
 */
import { TestScheduler } from 'rxjs/testing'
import { describe, expect, it } from 'vitest'
import { retryAfterMs } from '../../src/adapterKit/retryAfterMs.js'
import type { ModelEvent } from '../../src/index.js'
import { chatEvents } from '../../src/openai/chatEvents.js'
import {
  type ChatStreamInput,
  type ChatStreamState,
  initialChatStream,
  reduceChatStream,
} from '../../src/openai/reduceChatStream.js'
import { ModelRequestError } from '../../src/openai.js'

const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v)
    Object.freeze(value)
  }
  return value
}

const data = (payload: unknown): ChatStreamInput =>
  deepFreeze({ type: 'data', data: typeof payload === 'string' ? payload : JSON.stringify(payload) })
const end: ChatStreamInput = deepFreeze({ type: 'end' })
const done = data('[DONE]')
const delta = (d: Record<string, unknown>, finish_reason: string | null = null) =>
  data({ choices: [{ index: 0, delta: d, finish_reason }] })
const call = (index: number | undefined, fn: Record<string, string>, id?: string) =>
  delta({ tool_calls: [{ ...(index === undefined ? {} : { index }), ...(id ? { id } : {}), function: fn }] })

const s0 = deepFreeze(initialChatStream('call_1_1_'))
const state = (over: Partial<ChatStreamState>): ChatStreamState => deepFreeze({ ...s0, ...over })

/** Folds inputs from the initial state; the events of all steps, and the final state and error. */
const fold = (...inputs: ChatStreamInput[]) => {
  let current = s0
  const events: ModelEvent[] = []
  let error: ModelRequestError | undefined
  for (const input of inputs) {
    const step = reduceChatStream(current, input)
    current = step.state
    events.push(...step.events)
    error ??= step.error
  }
  return { state: current, events, error }
}

describe('reduceChatStream', () => {
  const table: [
    string,
    ChatStreamState,
    ChatStreamInput,
    { state: ChatStreamState; events: ModelEvent[] },
  ][] = [
    [
      'a content delta is a text event',
      s0,
      delta({ content: 'Hi' }),
      { state: s0, events: [{ type: 'text', text: 'Hi' }] },
    ],
    [
      'reasoning_content wins over reasoning in the same delta; reasoning comes before text',
      s0,
      delta({ reasoning_content: 'a', reasoning: 'b', content: 'c' }),
      {
        state: s0,
        events: [
          { type: 'reasoning', text: 'a' },
          { type: 'text', text: 'c' },
        ],
      },
    ],
    [
      'an empty or null content emits nothing',
      s0,
      delta({ role: 'assistant', content: '' }),
      { state: s0, events: [] },
    ],
    ['a chunk without choices emits nothing', s0, data({ choices: [] }), { state: s0, events: [] }],
    [
      'finish_reason is held back, not emitted',
      s0,
      delta({}, 'stop'),
      { state: state({ finishReason: 'stop' }), events: [] },
    ],
    [
      'usage is recorded from the usage chunk',
      state({ finishReason: 'stop' }),
      data({ choices: [], usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 } }),
      { state: state({ finishReason: 'stop', usage: { inputTokens: 7, outputTokens: 2 } }), events: [] },
    ],
    [
      'a first tool-call delta opens a call; nothing is emitted yet',
      s0,
      call(0, { name: 'add', arguments: '{"a"' }, 'c1'),
      { state: state({ calls: [{ index: 0, id: 'c1', name: 'add', arguments: '{"a"' }] }), events: [] },
    ],
    [
      'a later delta of the same index appends arguments and keeps the id and name',
      state({ calls: [{ index: 0, id: 'c1', name: 'add', arguments: '{"a"' }] }),
      call(0, { name: '', arguments: ':1}' }, ''),
      { state: state({ calls: [{ index: 0, id: 'c1', name: 'add', arguments: '{"a":1}' }] }), events: [] },
    ],
    [
      'a delta without index and with a new id opens the next call',
      state({ calls: [{ index: 0, id: 'c1', name: 'add', arguments: '{}' }] }),
      call(undefined, { name: 'mul', arguments: '{' }, 'c2'),
      {
        state: state({
          calls: [
            { index: 0, id: 'c1', name: 'add', arguments: '{}' },
            { index: 1, id: 'c2', name: 'mul', arguments: '{' },
          ],
        }),
        events: [],
      },
    ],
    [
      '[DONE] emits the calls in index order, then finish with usage',
      state({
        calls: [
          { index: 0, id: undefined, name: 'a', arguments: '' },
          { index: 1, id: 'c2', name: 'b', arguments: '{"x":1}' },
        ],
        finishReason: 'tool_calls',
        usage: { inputTokens: 1, outputTokens: 2 },
      }),
      done,
      {
        state: state({
          calls: [
            { index: 0, id: undefined, name: 'a', arguments: '' },
            { index: 1, id: 'c2', name: 'b', arguments: '{"x":1}' },
          ],
          finishReason: 'tool_calls',
          usage: { inputTokens: 1, outputTokens: 2 },
          done: true,
        }),
        events: [
          { type: 'tool-call', id: 'call_1_1_0', name: 'a', arguments: '{}' },
          { type: 'tool-call', id: 'c2', name: 'b', arguments: '{"x":1}' },
          { type: 'finish', reason: 'tool-calls', usage: { inputTokens: 1, outputTokens: 2 } },
        ],
      },
    ],
    [
      'the end of the body after a finish_reason closes like [DONE]',
      state({ finishReason: 'length' }),
      end,
      {
        state: state({ finishReason: 'length', done: true }),
        events: [{ type: 'finish', reason: 'max-tokens' }],
      },
    ],
  ]
  it.each(table)('%s', (_rule, before, input, expected) => {
    const step = reduceChatStream(before, input)
    expect(step.error).toBeUndefined()
    expect(step).toEqual(expected)
  })

  const reasons: [string | undefined, boolean, string][] = [
    ['stop', false, 'stop'],
    ['stop', true, 'stop'],
    ['tool_calls', true, 'tool-calls'],
    ['function_call', true, 'tool-calls'],
    ['length', true, 'max-tokens'],
    ['content_filter', false, 'stop'],
    ['content_filter', true, 'tool-calls'],
    [undefined, false, 'stop'],
    [undefined, true, 'tool-calls'],
  ]
  it.each(reasons)('finish_reason %s (calls: %s) finishes with %s', (raw, hasCalls, reason) => {
    const calls = hasCalls ? [{ index: 0, id: 'c', name: 'x', arguments: '{}' }] : []
    const step = reduceChatStream(state({ calls, finishReason: raw }), done)
    expect(step.events.at(-1)).toEqual({ type: 'finish', reason })
  })

  const failures: [string, ChatStreamState, ChatStreamInput, RegExp][] = [
    ['malformed JSON', s0, data('{"choices":'), /malformed JSON in a stream data line: \{"choices":/],
    ['a chunk of the wrong shape', s0, data({ choices: 'no' }), /unexpected chunk at choices: /],
    [
      'an error object in the stream',
      s0,
      data({ error: { message: 'overloaded' } }),
      /mid-stream: overloaded/,
    ],
    ['an error string in the stream', s0, data({ error: 'bad' }), /mid-stream: bad/],
    ['the end of the body before any finish_reason', state({}), end, /ended before the model finished/],
    [
      'a tool call that never got a name',
      state({ calls: [{ index: 2, id: 'c', name: undefined, arguments: '{}' }], finishReason: 'tool_calls' }),
      done,
      /tool call 2 of the stream has no function name/,
    ],
  ]
  it.each(failures)(
    '%s fails with a ModelRequestError and closes the stream',
    (_what, before, input, message) => {
      const step = reduceChatStream(before, input)
      expect(step.error).toBeInstanceOf(ModelRequestError)
      expect(step.error?.status).toBeUndefined()
      expect(step.error?.message).toMatch(message)
      expect(step.events).toEqual([])
      expect(step.state.done).toBe(true)
    },
  )

  it('ignores every input once done, returning the same state object', () => {
    const closed = state({ done: true })
    for (const input of [delta({ content: 'x' }), done, end, data('garbage')]) {
      const step = reduceChatStream(closed, input)
      expect(step.state).toBe(closed)
      expect(step.events).toEqual([])
      expect(step.error).toBeUndefined()
    }
  })

  it('two calls interleaved by index assemble independently', () => {
    const { events, error } = fold(
      call(1, { name: 'b', arguments: '[' }, 'id-b'),
      call(0, { name: 'a', arguments: '{' }, 'id-a'),
      call(1, { arguments: '1]' }),
      call(0, { arguments: '}' }),
      delta({}, 'tool_calls'),
      done,
    )
    expect(error).toBeUndefined()
    expect(events).toEqual([
      { type: 'tool-call', id: 'id-a', name: 'a', arguments: '{}' },
      { type: 'tool-call', id: 'id-b', name: 'b', arguments: '[1]' },
      { type: 'finish', reason: 'tool-calls' },
    ])
  })
})

describe('chatEvents', () => {
  const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected))
  const payloads = {
    t: JSON.stringify({ choices: [{ delta: { content: 'Hi' } }] }),
    c: JSON.stringify({
      choices: [{ delta: { tool_calls: [{ index: 0, id: 'k', function: { name: 'n' } }] } }],
    }),
    f: JSON.stringify({ choices: [{ delta: {}, finish_reason: 'tool_calls' }] }),
    s: JSON.stringify({ choices: [{ delta: {}, finish_reason: 'stop' }] }),
    u: JSON.stringify({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 1 } }),
    D: '[DONE]',
    x: '{oops',
  }
  const events: Record<string, ModelEvent> = {
    t: { type: 'text', text: 'Hi' },
    c: { type: 'tool-call', id: 'k', name: 'n', arguments: '{}' },
    F: { type: 'finish', reason: 'tool-calls', usage: { inputTokens: 3, outputTokens: 1 } },
    S: { type: 'finish', reason: 'stop' },
  }

  it('emits deltas at once and the complete calls and finish at [DONE], then unsubscribes', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      // prettier-ignore
      const data$ = cold(' -t--c--f--u--D--t--|', payloads)
      const expected = '  -t-----------(cF|)'
      const subs = '      ^------------!'
      expectObservable(data$.pipe(chatEvents('p_'))).toBe(expected, events)
      expectSubscriptions(data$.subscriptions).toBe(subs)
    })
  })

  it('a source that completes after finish_reason finishes; one that completes before errors', () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('-t--s-|', payloads).pipe(chatEvents('p_'))).toBe('-t----(S|)', events)
      expectObservable(cold('-t-|', payloads).pipe(chatEvents('p_'))).toBe(
        '-t-#',
        events,
        expect.objectContaining({ name: 'ModelRequestError', message: expect.stringMatching(/dropped/) }),
      )
    })
  })

  it('a malformed payload errors and unsubscribes; a source error passes through', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const data$ = cold('-t-x-t-|', payloads)
      expectObservable(data$.pipe(chatEvents('p_'))).toBe(
        '-t-#',
        events,
        expect.objectContaining({ name: 'ModelRequestError' }),
      )
      expectSubscriptions(data$.subscriptions).toBe('^--!')
      expectObservable(cold('-t-#', payloads, 'boom').pipe(chatEvents('p_'))).toBe('-t-#', events, 'boom')
    })
  })
})

describe('retryAfterMs', () => {
  const now = Date.parse('2025-01-01T00:00:00Z')
  const cases: [string, Record<string, string>, number | undefined][] = [
    ['no header', {}, undefined],
    ['delay-seconds', { 'retry-after': '3' }, 3000],
    ['fractional seconds', { 'retry-after': '0.5' }, 500],
    ['an HTTP date in the future', { 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }, 5000],
    ['an HTTP date in the past means now', { 'retry-after': 'Tue, 31 Dec 2024 23:59:00 GMT' }, 0],
    ['retry-after-ms wins over retry-after', { 'retry-after': '3', 'retry-after-ms': '1234' }, 1234],
    [
      'an unreadable retry-after-ms falls back to retry-after',
      { 'retry-after': '3', 'retry-after-ms': 'soon' },
      3000,
    ],
    ['an unreadable value', { 'retry-after': 'later' }, undefined],
    ['a negative value', { 'retry-after': '-1' }, undefined],
  ]
  it.each(cases)('%s', (_what, headers, expected) => {
    expect(retryAfterMs(new Headers(headers), now)).toBe(expected)
  })
})
