/**
 * `steerable/ai-sdk` over a provider whose values throw when read (a getter that throws any value,
 * a Proxy whose traps throw): the request fails with a `ModelRequestError` that says what could
 * not be read, never with the raw thrown value; a model that cannot be read is refused when the
 * adapter is built.
 */

import { asapScheduler } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { fromLanguageModel, type LanguageModel, ModelRequestError } from '../../src/aisdk.js'
import { type AgentEvent, createAgent, InvalidInputError, type SessionEvent } from '../../src/index.js'
import { MockLanguageModelV4 } from '../support/aisdkModels.js'
import { answer, finish, text } from '../support/aisdkParts.js'
import { failure, throwing } from '../support/aisdkRequests.js'
import { throwingField, throwingProxy, thrownValues } from '../support/hostile.js'

const resolving = (result: unknown) => new MockLanguageModelV4({ doStream: async () => result as never })

/** A `doStream` result whose stream yields these values, hostile or not. */
const streamOf = (...parts: unknown[]) => ({
  stream: new ReadableStream({
    start: (c) => {
      for (const part of parts) c.enqueue(part)
      c.close()
    },
  }),
})

/** A `doStream` result whose stream is a reader of our own: `read` gives what the test says. */
const readerOf = (read: () => unknown) => ({
  stream: { getReader: () => ({ read, cancel: async () => {} }) },
})

const apiCallError = () =>
  Object.assign(new Error('Bad gateway'), {
    [Symbol.for('vercel.ai.error.AI_APICallError')]: true,
    url: 'https://api.example.com/v1/messages',
    statusCode: 502,
  })

const cannotBeRead = (what: string) =>
  new RegExp(
    `^fromLanguageModel\\(mock-provider mock-model-id\\): ${what} cannot be read \\(reading it threw .*\\); ` +
      'the provider package may be broken, or too new or too old for this adapter; retrying will not help$',
  )

/** Where the provider's hostile value sits, and what the error must say. */
const places: readonly [string, (thrown: unknown) => LanguageModel, RegExp][] = [
  [
    "the doStream result's stream",
    (t) => resolving(throwingField({}, 'stream', t)),
    cannotBeRead('the result of doStream'),
  ],
  [
    "the stream's getReader",
    (t) => resolving({ stream: throwingField({}, 'getReader', t) }),
    cannotBeRead('the result of doStream'),
  ],
  [
    'getReader() that throws',
    (t) =>
      resolving({
        stream: {
          getReader: () => {
            throw t
          },
        },
      }),
    cannotBeRead('the result of doStream'),
  ],
  [
    'read() that throws',
    (t) =>
      resolving(
        readerOf(() => {
          throw t
        }),
      ),
    cannotBeRead('a read of the stream'),
  ],
  [
    "a read result's value",
    (t) => resolving(readerOf(async () => throwingField({ done: false }, 'value', t))),
    cannotBeRead('a read of the stream'),
  ],
  ["a part's type", (t) => resolving(streamOf(throwingField({}, 'type', t))), cannotBeRead('a stream part')],
  [
    'a part that is a throwing Proxy',
    (t) => resolving(streamOf(throwingProxy(t))),
    cannotBeRead('a stream part'),
  ],
  [
    "a text-delta's delta",
    (t) => resolving(streamOf(throwingField({ type: 'text-delta', id: 't' }, 'delta', t))),
    cannotBeRead('a stream part'),
  ],
  [
    "a tool-call's input",
    (t) =>
      resolving(streamOf(throwingField({ type: 'tool-call', toolCallId: 'c', toolName: 'n' }, 'input', t))),
    cannotBeRead('a stream part'),
  ],
  [
    "a finish's usage",
    (t) =>
      resolving(streamOf(throwingField({ type: 'finish', finishReason: { unified: 'stop' } }, 'usage', t))),
    cannotBeRead('a stream part'),
  ],
  [
    "a finish's finishReason that is a throwing Proxy",
    (t) => resolving(streamOf({ type: 'finish', finishReason: throwingProxy(t) })),
    cannotBeRead('a stream part'),
  ],
  [
    "an error part's error",
    (t) => resolving(streamOf(throwingField({ type: 'error' }, 'error', t))),
    cannotBeRead('a stream part'),
  ],
  [
    "a thrown APICallError's url",
    (t) => throwing(throwingField(apiCallError(), 'url', t)),
    /^fromLanguageModel\(mock-provider mock-model-id\): the provider answered 502: Bad gateway \(retry later\)$/,
  ],
  [
    "an APICallError's statusCode in an error part",
    (t) => resolving(streamOf({ type: 'error', error: throwingField(apiCallError(), 'statusCode', t) })),
    /the request to https:\/\/api\.example\.com\/v1\/messages failed: Bad gateway; retrying the request may help$/,
  ],
  [
    "an APICallError's responseHeaders that are a throwing Proxy",
    (t) => throwing(Object.assign(apiCallError(), { responseHeaders: throwingProxy(t) })),
    /https:\/\/api\.example\.com\/v1\/messages answered 502: Bad gateway \(retry later\)$/,
  ],
]

const cases = places.flatMap(([place, model, message]) =>
  Object.keys(thrownValues()).map((thrown) => [place, thrown, model, message] as const),
)

describe('fromLanguageModel: provider values that throw when read', () => {
  it.each(cases)(
    '%s, when reading it throws %s: a ModelRequestError that says so',
    async (_place, thrown, model, message) => {
      const { error } = await failure(model(thrownValues()[thrown]))
      expect(error).toBeInstanceOf(ModelRequestError)
      expect(error.message).toMatch(message)
    },
  )

  it('R24: through an agent the turn ends with the ModelRequestError, its text in turn/end; the agent goes on', async () => {
    const model = new MockLanguageModelV4({
      doStream: [
        streamOf(throwingField({ type: 'text-delta', id: 't' }, 'delta', Symbol('hostile'))),
        answer(text('t', 'Fine.'), finish('stop')),
      ] as never,
    })
    const agent = createAgent({ model: fromLanguageModel(model), scheduler: asapScheduler })
    const live: AgentEvent[] = []
    const durable: SessionEvent[] = []
    agent.events$.subscribe((e) => live.push(e))
    agent.transcript$.subscribe((e) => durable.push(e))
    for (const prompt of ['one', 'two']) {
      agent.followup(prompt)
      await agent.whenIdle()
    }
    const errors = live.flatMap((e) => (e.type === 'agent/error' ? [e.error] : []))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toBeInstanceOf(ModelRequestError)
    const ends = durable.flatMap((e) => (e.type === 'turn/end' ? [JSON.stringify(e.data)] : []))
    expect(ends[0]).toMatch(/a stream part cannot be read \(reading it threw Symbol\(hostile\)\)/)
    expect(agent.session.messages().at(-1)).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'Fine.' }],
    })
    await agent.dispose()
  })

  it.each([
    [
      'a model whose provider getter throws',
      () => throwingField(resolving(streamOf()), 'provider', new Error('x')),
    ],
    [
      'a model whose specificationVersion getter throws a symbol',
      () => throwingField(resolving(streamOf()), 'specificationVersion', Symbol('x')),
    ],
    ['a model that is a throwing Proxy', () => throwingProxy(undefined)],
  ])(
    '%s is refused when the adapter is built with an InvalidInputError that says it cannot be read',
    (_what, model) => {
      expect(() => fromLanguageModel(model() as LanguageModel)).toThrow(InvalidInputError)
      expect(() => fromLanguageModel(model() as LanguageModel)).toThrow(
        /^fromLanguageModel\(\): model: cannot be read \(reading it threw .*\); pass the model of a provider package/,
      )
    },
  )
})
