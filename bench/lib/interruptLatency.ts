/**
 * From an interrupting steer to the server seeing its connection close (R69), for both adapters
 * against a local server on 127.0.0.1 (test/support's servers, in this process): the agent has
 * published 100 deltas, `steer(x, {interrupt: true})` is called, and the server's `close` event
 * ends the measure. Two paces: the server waits after its 100th chunk (`held`: the connection is
 * quiet at the steer), or writes as fast as the socket takes (`flood`: the client is busy
 * reading).
 */

import type { ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'
import { createAnthropic } from '@ai-sdk/anthropic'
import type { ModelAdapter } from '../../src/index.js'
import {
  anthropicEvent,
  anthropicHead,
  message,
  messageStart,
  textBlock,
} from '../../test/support/anthropicServer.js'
import { heldStream } from '../../test/support/heldStream.js'
import {
  answer,
  chunk,
  closeServers,
  event,
  type Handler,
  inTurn,
  serve,
  sseHead,
} from '../../test/support/openaiServer.js'
import { deltaCounter } from '../../test/support/steerMidStream.js'
import { loadAdapters, steerable } from './built.js'

export type Wire = 'openai' | 'anthropic'
export type Pace = 'held' | 'flood'

const SEEN = 100
const FLOOD_LIMIT = 10_000_000

type WireSpec = {
  readonly head: (res: ServerResponse) => void
  readonly chunkOf: (text: string) => string
  readonly reply: Handler
  readonly model: (baseURL: string) => ModelAdapter
}

const adapters = await loadAdapters()

const WIRES: Record<Wire, WireSpec> = {
  openai: {
    head: (res) => {
      sseHead(res)
      res.write(event(chunk({ role: 'assistant', content: '' })))
    },
    chunkOf: (text) => event(chunk({ content: text })),
    reply: answer('ok'),
    model: (baseURL) => adapters.openai.openaiModel({ baseURL, model: 'test-model' }),
  },
  anthropic: {
    head: (res) => {
      anthropicHead(res)
      res.write(messageStart())
      res.write(
        anthropicEvent({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      )
    },
    chunkOf: (text) =>
      anthropicEvent({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }),
    reply: message('end_turn', textBlock('ok')),
    model: (baseURL) =>
      adapters.aisdk.fromLanguageModel(createAnthropic({ baseURL, apiKey: 'sk-ant-bench' })('claude-test')),
  },
}

/** Milliseconds from `steer()` to the server's `close`, one request. */
export const steerToClose = async (wire: Wire, pace: Pace): Promise<number> => {
  const spec = WIRES[wire]
  const held = heldStream(spec.head)
  const server = await serve(inTurn(held.handler, spec.reply))
  const agent = steerable.createAgent({ model: spec.model(server.baseURL) })
  const deltas = deltaCounter(agent)
  agent.followup('Tell a long story.')
  await held.opened
  const text = (i: number) => spec.chunkOf(`w${i} `)
  if (pace === 'flood') held.flood(text, FLOOD_LIMIT)
  else
    for (let i = 0; i < SEEN; i++) {
      held.write(text(i))
      await deltas.when(i + 1)
    }
  await deltas.when(SEEN)
  const t0 = performance.now()
  agent.steer('Be brief.', { interrupt: true })
  const closed = await held.closed
  await agent.whenIdle()
  await agent.dispose()
  await closeServers()
  if (closed.endedByServer) throw new Error('interruptLatency: the server ended the answer itself')
  return closed.at - t0
}
