import { describe, expect, it } from 'vitest'
import type { AgentEvent, AgentMessage, SessionEvent } from '../../src/index.js'
import { gate, setup } from '../support/agents.js'

type Mutable = Record<string | number, unknown> & unknown[]
const mut = (value: unknown): Mutable => value as Mutable

const messageOf = (event: AgentEvent | undefined): AgentMessage => {
  if (event?.type === 'agent/inbox/enqueue' || event?.type === 'agent/inbox/dequeue') return event.message
  throw new Error(`no message on ${event?.type}`)
}

/** Every way to mutate an accepted message; each must throw (ES modules run in strict mode). */
const mutations = (message: AgentMessage): (() => unknown)[] => [
  () => {
    mut(message).id = 'other'
  },
  () => {
    mut(message).extra = 1
  },
  () => {
    mut(message).content = []
  },
  () => mut(message.content).push({ type: 'text', text: 'more' }),
  () => {
    mut(message.content[0]).text = 'changed'
  },
  () => {
    mut(message.source).kind = 'plugin'
  },
  () => delete mut(message.source).kind,
]

describe('R1: send snapshots and deep-freezes its input', () => {
  it('R1: later mutation of the caller object never changes the accepted message', async () => {
    const { agent, rec } = setup(['ok'])
    const input = {
      content: [{ type: 'text' as const, text: 'original' }],
      source: { kind: 'user', tag: 'a' },
    }
    const id = agent.followup(input)
    input.content[0]!.text = 'mutated'
    input.content.push({ type: 'text', text: 'pushed' })
    input.source.tag = 'b'
    await agent.whenIdle()
    expect(Object.isFrozen(input)).toBe(false)
    expect(Object.isFrozen(input.content)).toBe(false)
    const expected = { id, content: [{ type: 'text', text: 'original' }], source: { kind: 'user', tag: 'a' } }
    expect(messageOf(rec.live[0])).toStrictEqual(expected)
    expect(rec.log).toContain('user(original)')
    const prompt = rec.durable.find((e) => e.type === 'user/message')
    expect(prompt?.data).toStrictEqual(expected)
  })

  it('R1: the request sent to the model is built from the snapshot', async () => {
    const { agent, model } = setup(['ok'])
    const input = { content: [{ type: 'text' as const, text: 'original' }], source: { kind: 'user' } }
    agent.followup(input)
    input.content[0]!.text = 'mutated'
    await agent.whenIdle()
    expect(model.requests[0]?.messages).toStrictEqual([
      { role: 'user', content: [{ type: 'text', text: 'original' }] },
    ])
  })

  it('R1: an accepted message is exactly {id, content, source}; other top-level keys are dropped', async () => {
    const { agent, rec } = setup(['ok'])
    const input = {
      content: [{ type: 'text' as const, text: 'hi' }],
      source: { kind: 'user' as const },
      id: 'x',
    }
    const id = agent.followup(input)
    const message = messageOf(rec.live[0])
    expect(Object.keys(message).sort()).toEqual(['content', 'id', 'source'])
    expect(message.id).toBe(id)
    expect(message.id).not.toBe('x')
    await agent.whenIdle()
  })

  it('R1: mutating the message of enqueue, dequeue and discard events throws', async () => {
    const g = gate()
    const { agent, rec } = setup([g.reply])
    agent.followup('hi')
    await rec.when('step/start(1.1)')
    agent.steer('s')
    agent.followup('q')
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
    const withMessages = rec.live.flatMap((e) =>
      e.type === 'agent/inbox/discard'
        ? e.messages
        : e.type === 'agent/inbox/enqueue' || e.type === 'agent/inbox/dequeue'
          ? [e.message]
          : [],
    )
    expect(withMessages).toHaveLength(6) // enqueue ×3, dequeue hi, discard q and s
    for (const message of withMessages) {
      for (const mutate of mutations(message)) expect(mutate).toThrow(TypeError)
    }
    expect(messageOf(rec.live[0]).content).toStrictEqual([{ type: 'text', text: 'hi' }])
  })

  it('R1: the same frozen message travels from enqueue to dequeue', async () => {
    const { agent, rec } = setup(['ok'])
    agent.followup('hi')
    await agent.whenIdle()
    const enqueued = messageOf(rec.live.find((e) => e.type === 'agent/inbox/enqueue'))
    const dequeued = messageOf(rec.live.find((e) => e.type === 'agent/inbox/dequeue'))
    expect(dequeued).toStrictEqual(enqueued)
    expect(Object.isFrozen(dequeued)).toBe(true)
  })

  it('R1: a queued string send (kept as {id, text}) comes out as the message it went in as', async () => {
    const g = gate()
    const { agent, rec } = setup([g.reply, 'ok'])
    agent.followup('first')
    await rec.when('step/start(1.1)')
    const kept = agent.followup('kept')
    const dropped = agent.followup('dropped')
    g.release('done')
    await rec.when('step/start(2.1)')
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
    const enqueued = new Map(
      rec.live.flatMap((e) => (e.type === 'agent/inbox/enqueue' ? [[e.message.id, e.message] as const] : [])),
    )
    const dequeued = rec.live.flatMap((e) => (e.type === 'agent/inbox/dequeue' ? [e.message] : []))
    const discarded = rec.live.flatMap((e) => (e.type === 'agent/inbox/discard' ? e.messages : []))
    expect(dequeued.map((m) => m.id)).toEqual([expect.any(String), kept])
    expect(discarded.map((m) => m.id)).toEqual([dropped])
    // Same value and the same JSON (key order) as the enqueued message; frozen all the way down.
    for (const message of [...dequeued, ...discarded]) {
      expect(JSON.stringify(message)).toBe(JSON.stringify(enqueued.get(message.id)))
      for (const mutate of mutations(message)) expect(mutate).toThrow(TypeError)
    }
    const prompt = rec.durable.find((e) => e.type === 'user/message' && e.data.id === kept)
    expect(JSON.stringify(prompt?.data)).toBe(
      JSON.stringify({ content: [{ type: 'text', text: 'kept' }], source: { kind: 'user' }, id: kept }),
    )
  })

  it('R1: durable events are deep-frozen (R38), in the stream and in session.events', async () => {
    const g = gate()
    const { agent, rec } = setup([g.reply])
    agent.followup('hi')
    await rec.when('step/start(1.1)')
    agent.steer('s')
    agent.inject('ctx')
    g.release('done')
    await agent.whenIdle()
    const check = (event: SessionEvent): void => {
      expect(() => {
        mut(event).seq = 99
      }).toThrow(TypeError)
      expect(() => {
        mut(event.data).turn = 99
      }).toThrow(TypeError)
      const data: Record<string, unknown> = event.data
      const content = data.content as unknown[] | undefined
      if (content) {
        expect(() => mut(content).push({ type: 'text', text: 'x' })).toThrow(TypeError)
        const first = content[0]
        if (first) {
          expect(() => {
            mut(first).text = 'x'
          }).toThrow(TypeError)
        }
      }
      if (data.source) {
        expect(() => {
          mut(data.source).kind = 'x'
        }).toThrow(TypeError)
      }
    }
    expect(rec.durable.map((e) => e.type)).toEqual(
      expect.arrayContaining(['user/message', 'steering/message', 'assistant/message', 'turn/end']),
    )
    for (const event of rec.durable) check(event)
    for (const event of agent.session.events) check(event)
    for (const message of agent.session.messages()) {
      expect(() => mut(message.content).push({ type: 'text', text: 'x' })).toThrow(TypeError)
    }
  })

  it('section 3, R1: session.events is a frozen snapshot, the same array until the next event is appended', async () => {
    const { agent } = setup(['answer'])
    agent.followup('hi')
    await agent.whenIdle()
    const first = agent.session.events
    expect(agent.session.events).toBe(first)
    expect(() => mut(first).push(first[0])).toThrow(TypeError)
    agent.inject('later')
    await agent.whenIdle()
    const second = agent.session.events
    expect(second).not.toBe(first)
    expect(second.slice(0, first.length)).toEqual(first)
    expect(second.at(-1)?.type).toBe('user/message')
    expect(first.at(-1)?.type).not.toBe('user/message') // the earlier snapshot did not change
  })

  it('R1: the cause on cancel-requested cannot be mutated', async () => {
    const g = gate()
    const { agent, rec } = setup([g.reply])
    agent.followup('hi')
    await rec.when('step/start(1.1)')
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
    const requested = rec.live.find((e) => e.type === 'agent/cancel-requested')
    expect(requested?.type === 'agent/cancel-requested' && requested.cause).toStrictEqual({ kind: 'user' })
    expect(() => {
      if (requested?.type === 'agent/cancel-requested') mut(requested.cause).kind = 'parent'
    }).toThrow(TypeError)
  })
})
