/**
 * One request to `fromLanguageModel` over an AI SDK test model, outside an agent: the events it
 * emits, or the events before it failed and the error.
 */

import { from, lastValueFrom, tap, toArray } from 'rxjs'
import {
  type FromLanguageModelOptions,
  fromLanguageModel,
  type LanguageModel,
  type ModelRequestError,
} from '../../src/aisdk.js'
import type { Message, ModelEvent, ModelRequest } from '../../src/index.js'
import { MockLanguageModelV4 } from './aisdkModels.js'
import type { answer } from './aisdkParts.js'

export const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] })

export const request = (over: Partial<ModelRequest> = {}): ModelRequest => ({
  agentId: 'agent-1',
  turn: 1,
  step: 1,
  messages: [user('hi')],
  tools: [],
  signal: new AbortController().signal,
  ...over,
})

export const modelOf = (...answers: ReturnType<typeof answer>[]) =>
  new MockLanguageModelV4({ doStream: answers })

/** All events of one request. */
export const collect = (
  model: LanguageModel,
  over: Partial<ModelRequest> = {},
  options?: FromLanguageModelOptions,
) => lastValueFrom(from(fromLanguageModel(model, options)(request(over))).pipe(toArray()))

/** The events emitted before the request failed, and the error. */
export const failure = async (model: LanguageModel, options?: FromLanguageModelOptions) => {
  const events: ModelEvent[] = []
  const error = await lastValueFrom(
    from(fromLanguageModel(model, options)(request())).pipe(
      tap((e) => events.push(e)),
      toArray(),
    ),
  ).then(
    () => new Error('expected the request to fail'),
    (e: unknown) => e,
  )
  return { events, error: error as ModelRequestError }
}

export const throwing = (error: unknown) =>
  new MockLanguageModelV4({
    doStream: async () => {
      throw error
    },
  })
