/**
 * R68, R69 with `steerable/openai` against a local Chat Completions server: an interrupting steer
 * into an answer that the server streams chunk by chunk, each chunk written only once the agent
 * published the one before, so what the agent saw at the steer is known exactly.
 */
import { asapScheduler } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import { createAgent } from '../../src/index.js'
import { openaiModel } from '../../src/openai.js'
import { record } from '../support/agents.js'
import { heldStream } from '../support/heldStream.js'
import { answer, chunk, closeServers, event, inTurn, serve, sseHead } from '../support/openaiServer.js'
import { counted, steerIntoFlood, steerMidStream } from '../support/steerMidStream.js'

afterEach(closeServers)

const words = (i: number) => `w${i + 1} `

describe('R69: steerable/openai honours an interrupting steer', () => {
  it('R68, R69: the connection closes, the transcript keeps exactly the text seen, no chunk is read after the steer', async () => {
    const held = heldStream((res) => {
      sseHead(res)
      res.write(event(chunk({ role: 'assistant', content: '' })))
    })
    const server = await serve(inTurn(held.handler, answer('Brief: done.')))
    const adapter = counted(openaiModel({ baseURL: server.baseURL, model: 'test-model' }))
    const agent = createAgent({ model: adapter.model, scheduler: asapScheduler })
    const { log, live, durable } = record(agent)
    agent.followup('Tell a long story.')

    const id = await steerMidStream({
      agent,
      held,
      textAt: words,
      chunkOf: (text) => event(chunk({ content: text })),
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
    // Step 1.2's answer is the only text after the steer; the unread w4, w5 never arrive.
    expect(deltas(enqueued + 1)).toEqual(['Brief: done.'])
    // What the adapter emitted after the steer: at most the one chunk in its hands (R69).
    expect(adapter.after()).toBeLessThanOrEqual(1)
    expect(held.written()).toBe(5)

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
      { role: 'user', content: 'Tell a long story.' },
      { role: 'assistant', content: 'w1 w2 w3 ' },
      { role: 'user', content: 'Stop there, be brief.' },
    ])
    await agent.dispose()
  })

  it('R68, R69: while the server writes as fast as the socket takes: the cut keeps exactly the deltas published before the steer', async () => {
    const held = heldStream((res) => {
      sseHead(res)
      res.write(event(chunk({ role: 'assistant', content: '' })))
    })
    const server = await serve(inTurn(held.handler, answer('Brief: done.')))
    const adapter = counted(openaiModel({ baseURL: server.baseURL, model: 'test-model' }))
    const agent = createAgent({ model: adapter.model, scheduler: asapScheduler })
    const { live, durable } = record(agent)
    agent.followup('Tell a long story.')
    const limit = 1_000_000
    await steerIntoFlood({
      agent,
      held,
      textAt: words,
      chunkOf: (text) => event(chunk({ content: text })),
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

  it('R69, R73: usage a server sent in a chunk before the cut is kept on the cut message, not estimated', async () => {
    // Some servers (vLLM's continuous usage stats) put usage on every chunk: the adapter passes it
    // on as a `usage` event while the answer streams, so the cut request keeps it.
    const held = heldStream((res) => {
      sseHead(res)
      res.write(
        event({
          ...chunk({ role: 'assistant', content: '' }),
          usage: { prompt_tokens: 12, completion_tokens: 0 },
        }),
      )
    })
    const server = await serve(inTurn(held.handler, answer('ok')))
    const agent = createAgent({
      model: openaiModel({ baseURL: server.baseURL, model: 'test-model' }),
      scheduler: asapScheduler,
    })
    const { durable } = record(agent)
    agent.followup('Tell a long story.')
    await steerMidStream({
      agent,
      held,
      textAt: words,
      chunkOf: (text) =>
        event({ ...chunk({ content: text }), usage: { prompt_tokens: 12, completion_tokens: 1 } }),
      seen: 1,
      unread: 0,
    })
    await held.closed
    await agent.whenIdle()
    const cut = durable.find((e) => e.type === 'assistant/message')
    expect(cut?.data).toMatchObject({ content: [{ type: 'text', text: 'w1 ' }], interrupted: true })
    expect(cut?.data).toMatchObject({ usage: { inputTokens: 12, outputTokens: 1 } })
    expect(cut?.data).not.toHaveProperty('usage.estimated')
    await agent.dispose()
  })
})
