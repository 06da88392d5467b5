import { describe, expect, it } from 'vitest'
import type { AgentEvent, AgentMessageId, SessionEvent } from '../../src/index.js'
import { gate, INJECT, PARKED, STEER, setup } from '../support/agents.js'

/** For each id: the inbox events that name it, in order (`enqueue`, `dequeue`, `discard`). */
const inboxTrail = (events: readonly AgentEvent[], id: AgentMessageId): string[] =>
  events.flatMap((e) => {
    if (e.type === 'agent/inbox/enqueue' && e.message.id === id) return [`enqueue:${e.placement}`]
    if (e.type === 'agent/inbox/dequeue' && e.message.id === id) return ['dequeue']
    if (e.type === 'agent/inbox/discard' && e.messages.some((m) => m.id === id)) return ['discard']
    return []
  })

/** The durable events that carry `id`. */
const durableTrail = (events: readonly SessionEvent[], id: AgentMessageId): string[] =>
  events.flatMap((e) =>
    (e.type === 'user/message' || e.type === 'steering/message') && e.data.id === id ? [e.type] : [],
  )

describe('V8: every id returned by send is accounted for', () => {
  it('V8: queued, steering, parked, injected and discarded ids each have one trail from send to the log', async () => {
    const g = gate()
    const { agent, rec } = setup([g.reply, 'two'])
    const prompt = agent.followup('a')
    await rec.when('step/start(1.1)')
    const steer = agent.steer('s')
    const staged = agent.inject('c')
    const queued = agent.followup('q')
    const parked = agent.send('p', PARKED)
    g.release('one')
    await agent.whenIdle()
    const idleInject = agent.send('i', INJECT)
    const dropped = agent.send('d', PARKED)
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()

    expect(inboxTrail(rec.live, prompt)).toEqual(['enqueue:queued', 'dequeue'])
    expect(inboxTrail(rec.live, steer)).toEqual(['enqueue:steering', 'dequeue'])
    expect(inboxTrail(rec.live, queued)).toEqual(['enqueue:queued', 'dequeue'])
    expect(inboxTrail(rec.live, parked)).toEqual(['enqueue:queued', 'discard'])
    expect(inboxTrail(rec.live, dropped)).toEqual(['enqueue:queued', 'discard'])
    expect(inboxTrail(rec.live, staged)).toEqual([])
    expect(inboxTrail(rec.live, idleInject)).toEqual([])

    expect(durableTrail(rec.durable, prompt)).toEqual(['user/message'])
    expect(durableTrail(rec.durable, steer)).toEqual(['steering/message'])
    expect(durableTrail(rec.durable, queued)).toEqual(['user/message'])
    expect(durableTrail(rec.durable, staged)).toEqual(['user/message'])
    expect(durableTrail(rec.durable, idleInject)).toEqual(['user/message'])
    expect(durableTrail(rec.durable, parked)).toEqual([])
    expect(durableTrail(rec.durable, dropped)).toEqual([])
  })

  it('V8: an injection staged when a turn is cancelled is appended with its id (V1)', async () => {
    const { agent, rec } = setup([{ hang: true }])
    agent.followup('a')
    await rec.when('step/start(1.1)')
    const id = agent.inject('ctx')
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
    expect(durableTrail(rec.durable, id)).toEqual(['user/message'])
  })

  it('V8: an injection staged during an admission that is blocked is appended with its id', async () => {
    let injected: AgentMessageId | undefined
    const { agent, rec } = setup([], {
      hooks: {
        promptSubmit: ({ agent: a }) => {
          injected = a.inject('ctx')
          return { kind: 'block', reason: 'no' }
        },
      },
    })
    agent.followup('a')
    await agent.whenIdle()
    expect(injected).toBeDefined()
    expect(durableTrail(rec.durable, injected as AgentMessageId)).toEqual(['user/message'])
  })

  it('V8: a steer that became a followup (window closed) carries its id as the prompt', async () => {
    const { agent, rec } = setup(['ok'])
    const id = agent.send('s', STEER)
    await agent.whenIdle()
    expect(inboxTrail(rec.live, id)).toEqual(['enqueue:queued', 'dequeue'])
    expect(durableTrail(rec.durable, id)).toEqual(['user/message'])
  })

  it('V8: additional contexts from promptSubmit carry no id', async () => {
    const { agent, rec } = setup(['ok'], {
      hooks: { promptSubmit: () => ({ kind: 'allow', additionalContexts: ['extra'] }) },
    })
    agent.followup('a')
    await agent.whenIdle()
    const users = rec.durable.filter((e) => e.type === 'user/message')
    expect(users.map((e) => e.type === 'user/message' && 'id' in e.data)).toEqual([true, false])
  })
})

describe('R3: ids are fresh and sort in acceptance order', () => {
  it('R3: every accepted send, injections included, gets a distinct id; ids sort in acceptance order', async () => {
    const { agent } = setup(['1', '2', '3', '4'])
    const other = setup(['x'])
    const ids: string[] = []
    for (let i = 0; i < 50; i++) {
      ids.push(agent.followup(`f${i}`))
      ids.push(agent.inject(`i${i}`))
      ids.push(other.agent.send(`p${i}`, PARKED))
      ids.push(agent.steer(`s${i}`))
    }
    expect(new Set(ids).size).toBe(ids.length)
    expect([...ids].sort()).toEqual(ids)
    for (const id of ids) expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
  })

  it('R3: a refused send mints no id (the next id still follows the previous one)', () => {
    const { agent } = setup()
    const first = agent.inject('a')
    expect(() => agent.inject({ content: [], source: { kind: 'user' } })).toThrow(TypeError)
    const second = agent.inject('b')
    expect(second > first).toBe(true)
  })
})
