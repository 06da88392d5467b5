/**
 * R24, R73: a server that reports usage no count can be (`completion_tokens: -1`, a string, a
 * missing object) after a complete answer. The usage is the provider's bookkeeping, not the
 * answer: the adapter drops what it cannot read, as the AI SDK adapter does, so the answer is
 * written and its usage estimated, instead of the turn ending `error` on a malformed event.
 */
import { afterEach, expect, it } from 'vitest'
import { createAgent } from '../../src/index.js'
import { openaiModel } from '../../src/openai.js'
import { chunk, closeServers, serve, sse } from '../support/openaiServer.js'

afterEach(closeServers)

/** The final usage chunk as the server writes it (text, so it can hold what JSON.stringify cannot). */
const usageChunk = (usage: unknown) => JSON.stringify({ ...chunk({}), choices: [], usage })

it.each([
  ['a negative completion count', { prompt_tokens: 12, completion_tokens: -1 }],
  ['a negative prompt count', { prompt_tokens: -5, completion_tokens: 3 }],
  ['a count that is a string', { prompt_tokens: '12', completion_tokens: 3 }],
  ['a count too large to be one', { prompt_tokens: 12, completion_tokens: 'HUGE' }],
  ['usage that is not an object', 'n/a'],
])(
  'R73, R24: %s after a complete answer: the answer is written, its usage estimated',
  async (_what, usage) => {
    const server = await serve(
      sse(chunk({ role: 'assistant', content: 'Paris.' }), chunk({}, 'stop'), usageChunk(usage)),
    )
    const agent = createAgent({ model: openaiModel({ baseURL: server.baseURL, model: 'm' }) })
    agent.followup('The capital of France?')
    await agent.whenIdle()
    const events = agent.session.events
    const end = events.find((e) => e.type === 'turn/end')
    expect(end?.data.reason).toEqual({ kind: 'completed' })
    const answer = events.find((e) => e.type === 'assistant/message')
    expect(answer?.data.content).toEqual([{ type: 'text', text: 'Paris.' }])
    expect(answer?.data.usage).toMatchObject({ estimated: true })
    expect(agent.usage).toMatchObject({ requests: 1, estimatedRequests: 1 })
    await agent.dispose()
  },
)

it.each([
  ['a negative cached count', { cached_tokens: -1 }],
  ['cached details that are not an object', 7],
])('R73: %s is dropped alone; the counts the server did send are kept', async (_what, details) => {
  const usage = { prompt_tokens: 12, completion_tokens: 3, prompt_tokens_details: details }
  const server = await serve(sse(chunk({ content: 'Paris.' }), chunk({}, 'stop'), usageChunk(usage)))
  const agent = createAgent({ model: openaiModel({ baseURL: server.baseURL, model: 'm' }) })
  agent.followup('The capital of France?')
  await agent.whenIdle()
  const answer = agent.session.events.find((e) => e.type === 'assistant/message')
  expect(answer?.data.usage).toEqual({ inputTokens: 12, outputTokens: 3 })
  await agent.dispose()
})

it('R73, R24: invalid usage sent while the answer streams is dropped too', async () => {
  const early = { ...chunk({ content: 'Par' }), usage: { prompt_tokens: 12, completion_tokens: -1 } }
  const server = await serve(sse(early, chunk({ content: 'is.' }), chunk({}, 'stop')))
  const agent = createAgent({ model: openaiModel({ baseURL: server.baseURL, model: 'm' }) })
  agent.followup('The capital of France?')
  await agent.whenIdle()
  const answer = agent.session.events.find((e) => e.type === 'assistant/message')
  expect(answer?.data.content).toEqual([{ type: 'text', text: 'Paris.' }])
  expect(answer?.data.usage).toMatchObject({ estimated: true })
  await agent.dispose()
})
