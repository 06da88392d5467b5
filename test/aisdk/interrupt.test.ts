/**
 * R68, R69 with `steerable/ai-sdk` and the real `@ai-sdk/anthropic` against a local Messages
 * server: an interrupting steer into an answer that the server streams one `text_delta` at a time,
 * each written only once the agent published the one before, so what the agent saw at the steer
 * is known exactly.
 */
import { createAnthropic } from '@ai-sdk/anthropic'
import { asapScheduler } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import { fromLanguageModel } from '../../src/aisdk.js'
import { createAgent } from '../../src/index.js'
import { record } from '../support/agents.js'
import {
  anthropicEvent,
  anthropicHead,
  message,
  messageStart,
  textBlock,
} from '../support/anthropicServer.js'
import { heldStream } from '../support/heldStream.js'
import { closeServers, inTurn, serve } from '../support/openaiServer.js'
import { counted, steerIntoFlood, steerMidStream } from '../support/steerMidStream.js'

afterEach(closeServers)

const apiKey = 'sk-ant-local-test-key-0123456789'

/** The head of a text answer: message_start (with its input tokens) and the text block's start. */
const textAnswerHead = () =>
  heldStream((res) => {
    anthropicHead(res)
    res.write(messageStart(10))
    res.write(
      anthropicEvent({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    )
  })

const textDelta = (text: string) =>
  anthropicEvent({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })

describe('R69: steerable/ai-sdk (@ai-sdk/anthropic) honours an interrupting steer', () => {
  it('R68, R69: the connection closes, the transcript keeps exactly the text seen, no chunk is read after the steer', async () => {
    const held = textAnswerHead()
    const server = await serve(inTurn(held.handler, message('end_turn', textBlock('Brief: done.'))))
    const provider = createAnthropic({ baseURL: server.baseURL, apiKey })
    const adapter = counted(fromLanguageModel(provider('claude-test')))
    const agent = createAgent({ model: adapter.model, scheduler: asapScheduler })
    const { log, live, durable } = record(agent)
    agent.followup('Tell a long story.')

    const id = await steerMidStream({
      agent,
      held,
      textAt: (i) => `w${i + 1} `,
      chunkOf: textDelta,
      seen: 3,
      unread: 2,
      onSteer: adapter.mark,
    })
    // The server never ends this response: a close is the client's.
    expect((await held.closed).endedByServer).toBe(false)
    await agent.whenIdle()

    const enqueued = live.findIndex((e) => e.type === 'agent/inbox/enqueue' && e.placement === 'steering')
    const deltas = (from: number, to?: number) =>
      live.slice(from, to).flatMap((e) => (e.type === 'agent/stream/delta' ? [e.text] : []))
    expect(deltas(0, enqueued)).toEqual(['w1 ', 'w2 ', 'w3 '])
    expect(deltas(enqueued + 1)).toEqual(['Brief: done.'])
    // What the adapter emitted after the steer: at most the one chunk in its hands (R69).
    expect(adapter.after()).toBeLessThanOrEqual(1)

    // message_start carried input_tokens before the cut, but the AI SDK provider reports usage
    // only in its finish part, which a cut request never reaches: the usage is estimated (R73).
    const cut = durable.find((e) => e.type === 'assistant/message')
    expect(cut?.data).toEqual({
      turn: 1,
      step: 1,
      content: [{ type: 'text', text: 'w1 w2 w3 ' }],
      usage: expect.objectContaining({ outputTokens: 3, estimated: true }),
      interrupted: true,
    })
    expect(log.slice(log.indexOf('enqueue(Stop there, be brief.,steering)'))).toEqual([
      'enqueue(Stop there, be brief.,steering)',
      'assistant(w1 w2 w3 ,cut)',
      'dequeue(Stop there, be brief.)',
      'steering(Stop there, be brief.,cut)',
      'step/end(1.1,cut)',
      'step/start(1.2)',
      'assistant(Brief: done.)',
      'step/end(1.2)',
      'turn/end(1,completed)',
      'settled(1,completed)',
      'idle',
    ])
    expect(live.some((e) => e.type === 'agent/error')).toBe(false)
    expect(await agent.outcome(id)).toMatchObject({ as: 'steering', interrupted: { turn: 1, step: 1 } })
    expect((server.received[1]?.body as { messages?: unknown[] } | undefined)?.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Tell a long story.' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'w1 w2 w3 ' }] },
      { role: 'user', content: [{ type: 'text', text: 'Stop there, be brief.' }] },
    ])
    await agent.dispose()
  })
  it('R68, R69: while the server writes as fast as the socket takes: the cut keeps exactly the deltas published before the steer', async () => {
    const held = textAnswerHead()
    const server = await serve(inTurn(held.handler, message('end_turn', textBlock('Brief: done.'))))
    const provider = createAnthropic({ baseURL: server.baseURL, apiKey })
    const adapter = counted(fromLanguageModel(provider('claude-test')))
    const agent = createAgent({ model: adapter.model, scheduler: asapScheduler })
    const { live, durable } = record(agent)
    agent.followup('Tell a long story.')
    const limit = 1_000_000
    const words = (i: number) => `w${i + 1} `
    await steerIntoFlood({
      agent,
      held,
      textAt: words,
      chunkOf: textDelta,
      after: 20,
      limit,
      onSteer: adapter.mark,
    })
    expect((await held.closed).endedByServer).toBe(false)
    await agent.whenIdle()
    expect(held.written()).toBeLessThan(limit)

    const enqueued = live.findIndex((e) => e.type === 'agent/inbox/enqueue' && e.placement === 'steering')
    const deltas = (from: number, to?: number) =>
      live.slice(from, to).flatMap((e) => (e.type === 'agent/stream/delta' ? [e.text] : []))
    const seen = deltas(0, enqueued)
    expect(seen.length).toBeGreaterThanOrEqual(20)
    expect(seen).toEqual(seen.map((_, i) => words(i)))
    expect(deltas(enqueued + 1)).toEqual(['Brief: done.'])
    expect(adapter.after()).toBeLessThanOrEqual(1)
    expect(durable.find((e) => e.type === 'assistant/message')?.data).toEqual({
      turn: 1,
      step: 1,
      content: [{ type: 'text', text: seen.join('') }],
      usage: expect.objectContaining({ estimated: true }),
      interrupted: true,
    })
    await agent.dispose()
  })
})
