import { describe, expect, it } from 'vitest'
import { createAgent, type ModelAdapter, type ModelEvent } from '../../src/index.js'

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

  it('a wrapper that spreads the request keeps messages and signal (the README example as written)', async () => {
    const seen: unknown[] = []
    const inner: ModelAdapter = (request) => {
      seen.push({
        roles: request.messages.map((m) => m.role),
        signal: request.signal,
        system: request.system,
      })
      return ANSWER
    }
    const withSystem: ModelAdapter = (req) => inner({ ...req, system: 'x' })
    const agent = createAgent({ model: withSystem })
    agent.followup('hi')
    await agent.whenIdle()
    expect(seen).toEqual([{ roles: ['user'], signal: expect.any(AbortSignal), system: 'x' }])
    expect(agent.session.messages().map((m) => m.role)).toEqual(['user', 'assistant'])
  })

  it('the request is a plain object whose own keys are the contract: a spread copies them all', async () => {
    const keys: string[][] = []
    const agent = createAgent({
      model: (request) => {
        keys.push(Object.keys({ ...request }).sort())
        expect(Object.getPrototypeOf(request)).toBe(Object.prototype)
        return ANSWER
      },
    })
    agent.followup('hi')
    await agent.whenIdle()
    expect(keys).toEqual([['agentId', 'messages', 'signal', 'step', 'tools', 'turn']])
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
        signal: {},
      },
    ])
  })
})
