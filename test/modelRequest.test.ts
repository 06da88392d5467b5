import { describe, expect, it } from 'vitest'
import { createAgent, type ModelAdapter, type ModelEvent, type ModelRequest } from '../src/index.js'

const ANSWER: readonly ModelEvent[] = [
  { type: 'text', text: 'ok' },
  { type: 'finish', reason: 'stop' },
]

describe('ModelRequest: {agentId, turn, step, system?, messages, tools, signal} (docs/contract.md, section 3)', () => {
  it('R15: messages and signal are read from the request, by property or by destructuring', async () => {
    const seen: unknown[] = []
    const agent = createAgent({
      instructions: 'be brief',
      model: (request) => {
        const { messages, signal, agentId, turn, step, system, tools } = request
        seen.push({ messages, aborted: signal.aborted, agentId, turn, step, system, tools })
        seen.push(request.messages === messages)
        return ANSWER
      },
    })
    agent.followup('hi')
    await agent.whenIdle()
    expect(seen).toEqual([
      {
        messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
        aborted: false,
        agentId: agent.id,
        turn: 1,
        step: 1,
        system: 'be brief',
        tools: [],
      },
      true, // read twice, one array
    ])
  })

  it('a spread copies the plain fields only; a wrapper passes messages and signal on', async () => {
    // messages and signal are getters on the request's prototype (made on first read).
    const spreads: string[][] = []
    const inner: ModelAdapter = (request) => {
      expect(request.messages.map((m) => m.role)).toEqual(['user'])
      expect(request.signal).toBeInstanceOf(AbortSignal)
      return ANSWER
    }
    // The README's pattern for a wrapping adapter.
    const wrapped: ModelAdapter = (request: ModelRequest) => {
      spreads.push(Object.keys({ ...request }).sort())
      return inner({ ...request, messages: request.messages, signal: request.signal, system: 'wrapped' })
    }
    const agent = createAgent({ model: wrapped })
    agent.followup('hi')
    await agent.whenIdle()
    expect(spreads).toEqual([['agentId', 'step', 'tools', 'turn']])
    expect(agent.session.messages().map((m) => m.role)).toEqual(['user', 'assistant'])
  })

  it('JSON.stringify(request) shows the whole request, messages included (for logging)', async () => {
    const logged: unknown[] = []
    const agent = createAgent({
      instructions: 'be brief',
      model: (request) => {
        logged.push(JSON.parse(JSON.stringify(request)))
        return ANSWER
      },
    })
    agent.followup('hi')
    await agent.whenIdle()
    expect(logged).toEqual([
      {
        agentId: agent.id,
        turn: 1,
        step: 1,
        system: 'be brief',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
        tools: [],
      },
    ])
  })
})
