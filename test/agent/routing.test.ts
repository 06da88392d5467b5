import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../src/index.js'
import { FOLLOWUP, gate, INJECT, oneTurn, PARKED, STEER, setup } from '../support/agents.js'

const idOf = (event: AgentEvent | undefined): string | undefined =>
  event?.type === 'agent/inbox/enqueue' || event?.type === 'agent/inbox/dequeue'
    ? event.message.id
    : undefined

describe('R3: synchronous acceptance', () => {
  it('R3: send returns a fresh id at once, and its enqueue is delivered before send returns', async () => {
    const { agent, rec } = setup(['a', 'b'])
    const id1 = agent.followup('one')
    expect(typeof id1).toBe('string')
    expect(rec.log).toEqual(['enqueue(one,queued)'])
    expect(idOf(rec.live[0])).toBe(id1)
    const id2 = agent.send('two', FOLLOWUP)
    expect(rec.log).toEqual(['enqueue(one,queued)', 'enqueue(two,queued)'])
    expect(idOf(rec.live[1])).toBe(id2)
    expect(id2).not.toBe(id1)
    await agent.whenIdle()
  })

  it('R3: an injection returns an id and produces no inbox event', async () => {
    const { agent, rec } = setup()
    const id = agent.inject('fact')
    expect(typeof id).toBe('string')
    expect(rec.log).toEqual(['user(fact)'])
    expect(rec.live).toEqual([])
    const g = gate()
    const busy = setup([g.reply])
    busy.agent.followup('go')
    await busy.rec.when('step/start(1.1)')
    const before = busy.rec.live.length
    const staged = busy.agent.inject('ctx')
    expect(typeof staged).toBe('string')
    expect(busy.rec.live.length).toBe(before)
    g.release('done')
    await busy.agent.whenIdle()
    expect(busy.rec.live.filter((e) => e.type.startsWith('agent/inbox/')).map((e) => e.type)).toEqual([
      'agent/inbox/enqueue',
      'agent/inbox/dequeue',
    ])
  })

  it('R3: each queued or steering placement produces exactly one enqueue', async () => {
    const g = gate()
    const { agent, rec } = setup([g.reply, 'x', 'y'])
    agent.followup('a')
    await rec.when('step/start(1.1)')
    agent.steer('s')
    agent.send('p', PARKED)
    agent.followup('b')
    g.release('done')
    await agent.whenIdle()
    const enqueues = rec.log.filter((l) => l.startsWith('enqueue('))
    expect(enqueues).toEqual([
      'enqueue(a,queued)',
      'enqueue(s,steering)',
      'enqueue(p,queued)',
      'enqueue(b,queued)',
    ])
  })
})

describe('R4: routing matrix, decided from acceptsNextStep only', () => {
  it('R4: next-turn, wakeup, window closed: queued, waking, wakes an idle driver', async () => {
    const { agent, rec } = setup(['ok'])
    agent.send('hi', FOLLOWUP)
    expect(agent.acceptsNextStep).toBe(false)
    await agent.whenIdle()
    expect(rec.log).toEqual(['enqueue(hi,queued)', ...oneTurn('hi', 'ok')])
  })

  it('R4: next-turn, wakeup, window open: queued, runs as the next turn with no idle between', async () => {
    const g = gate()
    const { agent, rec } = setup([g.reply, 'ok'])
    agent.followup('a')
    await rec.when('step/start(1.1)')
    expect(agent.acceptsNextStep).toBe(true)
    agent.send('b', FOLLOWUP)
    g.release('done')
    await agent.whenIdle()
    expect(rec.log).toEqual([
      'enqueue(a,queued)',
      'running',
      'dequeue(a)',
      'turn/start(1)',
      'user(a)',
      'step/start(1.1)',
      'enqueue(b,queued)',
      'assistant(done)',
      'step/end(1.1)',
      'turn/end(1,completed)',
      'settled(1,completed)',
      ...oneTurn('b', 'ok', 2).slice(1),
    ])
  })

  it('R4: next-turn, no wakeup, window closed: queued, parked, no wake', async () => {
    const { agent, model, rec } = setup(['ok'])
    agent.send('p', PARKED)
    await agent.whenIdle()
    expect(rec.log).toEqual(['enqueue(p,queued)'])
    expect(agent.status).toBe('idle')
    expect(model.requests).toHaveLength(0)
  })

  it('R4: next-turn, no wakeup, window open: queued, parked, stays parked after the turn', async () => {
    const g = gate()
    const { agent, model, rec } = setup([g.reply, 'ok'])
    agent.followup('a')
    await rec.when('step/start(1.1)')
    agent.send('p', PARKED)
    g.release('done')
    await agent.whenIdle()
    expect(rec.log).toEqual([
      'enqueue(a,queued)',
      'running',
      'dequeue(a)',
      'turn/start(1)',
      'user(a)',
      'step/start(1.1)',
      'enqueue(p,queued)',
      'assistant(done)',
      'step/end(1.1)',
      'turn/end(1,completed)',
      'settled(1,completed)',
      'idle',
    ])
    expect(model.requests).toHaveLength(1)
  })

  it('R4: next-step, wakeup, window open: steering, drained into the running turn, never through promptSubmit', async () => {
    const g = gate()
    const prompts: string[] = []
    const { agent, rec } = setup([g.reply, 'ok'], {
      hooks: {
        promptSubmit: ({ content }) => {
          prompts.push(content[0]?.type === 'text' ? content[0].text : '?')
          return undefined
        },
      },
    })
    agent.followup('a')
    await rec.when('step/start(1.1)')
    const id = agent.send('s', STEER)
    g.release('done')
    await agent.whenIdle()
    expect(rec.log).toEqual([
      'enqueue(a,queued)',
      'running',
      'dequeue(a)',
      'turn/start(1)',
      'user(a)',
      'step/start(1.1)',
      'enqueue(s,steering)',
      'assistant(done)',
      'dequeue(s)',
      'steering(s)',
      'step/end(1.1)',
      'step/start(1.2)',
      'assistant(ok)',
      'step/end(1.2)',
      'turn/end(1,completed)',
      'settled(1,completed)',
      'idle',
    ])
    expect(prompts).toEqual(['a'])
    const steering = rec.durable.find((e) => e.type === 'steering/message')
    expect(steering?.data).toMatchObject({ turn: 1, id, source: { kind: 'user' } })
  })

  it("R4: next-step, wakeup, window closed: exactly like a followup, keeping the caller's source", async () => {
    const { agent, rec } = setup(['ok'])
    const source = { kind: 'plugin', plugin: 'watcher' } as const
    const id = agent.send({ content: [{ type: 'text', text: 'hi' }], source }, STEER)
    await agent.whenIdle()
    expect(rec.log).toEqual(['enqueue(hi,queued)', ...oneTurn('hi', 'ok')])
    const start = rec.durable.find((e) => e.type === 'turn/start')
    expect(start?.data).toStrictEqual({ turn: 1, trigger: { kind: 'message', source, id } })
    const prompt = rec.durable.find((e) => e.type === 'user/message')
    expect(prompt?.data.source).toStrictEqual(source)
  })

  it('R4: next-step, no wakeup, window open: staged as context, no event until the drain', async () => {
    const g = gate()
    const { agent, rec } = setup([g.reply])
    agent.followup('a')
    await rec.when('step/start(1.1)')
    const before = rec.log.length
    agent.send('ctx', INJECT)
    expect(rec.log.length).toBe(before)
    g.release('done')
    await agent.whenIdle()
    expect(rec.log.slice(before)).toEqual([
      'assistant(done)',
      'user(ctx)',
      'step/end(1.1)',
      'turn/end(1,completed)',
      'settled(1,completed)',
      'idle',
    ])
  })

  it('R4: next-step, no wakeup, window closed: user/message at once, no turn, no model run, no status change', async () => {
    const { agent, model, rec } = setup(['ok'])
    const statuses: string[] = []
    agent.status$.subscribe((s) => statuses.push(s))
    const id = agent.send('fact', INJECT)
    expect(rec.log).toEqual(['user(fact)'])
    expect(agent.session.events.map((e) => e.type)).toEqual(['user/message'])
    await agent.whenIdle()
    expect(rec.log).toEqual(['user(fact)'])
    expect(model.requests).toHaveLength(0)
    expect(statuses).toEqual(['idle'])
    expect(rec.durable[0]?.data).toStrictEqual({
      content: [{ type: 'text', text: 'fact' }],
      source: { kind: 'user' },
      id,
    })
  })

  it('R4: routing follows the window, not status: a steer while running with the window closed is queued', async () => {
    const { agent, rec } = setup(['ok', 'ok2'])
    const seen: [string, boolean][] = []
    agent.events$.subscribe((e) => {
      if (e.type === 'agent/settled' && e.turn === 1) {
        seen.push([agent.status, agent.acceptsNextStep])
        agent.steer('late')
      }
    })
    agent.followup('a')
    await agent.whenIdle()
    expect(seen).toEqual([['running', false]])
    expect(rec.log).toEqual([
      'enqueue(a,queued)',
      ...oneTurn('a', 'ok').slice(0, -1),
      'enqueue(late,queued)',
      ...oneTurn('late', 'ok2', 2).slice(1),
    ])
  })

  it('R4: the window is open while the claim is in admission, before turn/start', async () => {
    const windows: boolean[] = []
    const { agent, rec } = setup(['ok'], {
      hooks: {
        promptSubmit: ({ agent: a }) => {
          windows.push(a.acceptsNextStep)
          a.steer('s')
          return undefined
        },
      },
    })
    agent.followup('a')
    await agent.whenIdle()
    expect(windows).toEqual([true])
    expect(rec.log).toEqual([
      'enqueue(a,queued)',
      'running',
      'dequeue(a)',
      'enqueue(s,steering)',
      'turn/start(1)',
      'user(a)',
      'dequeue(s)',
      'steering(s)',
      'step/start(1.1)',
      'assistant(ok)',
      'step/end(1.1)',
      'turn/end(1,completed)',
      'settled(1,completed)',
      'idle',
    ])
  })
})

describe('R5: placement is final', () => {
  it('R5: a queued item never becomes steering, even when the window is open at the next step', async () => {
    const g = gate()
    const { agent, model, rec } = setup([{ toolCalls: [{ name: 'nope' }] }, g.reply, 'ok'])
    agent.followup('a')
    await rec.when('step/start(1.2)')
    // `q` was queued while the window was open; it is not drained by the next step.
    agent.followup('q')
    g.release('done')
    await agent.whenIdle()
    expect(rec.log.filter((l) => l.startsWith('steering('))).toEqual([])
    expect(rec.log).toContain('turn/start(2)')
    expect(model.requests[1]?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool'])
    expect(rec.log.slice(-4)).toEqual([
      'step/end(2.1)',
      'turn/end(2,completed)',
      'settled(2,completed)',
      'idle',
    ])
  })

  it('R5: steering never becomes queued: leftover steering does not open a turn of its own', async () => {
    const g = gate()
    const { agent, model, rec } = setup([g.reply, 'ok'])
    agent.followup('a')
    await rec.when('step/start(1.1)')
    agent.steer('s')
    agent.cancel({ kind: 'user' }, { keepInbox: true })
    await agent.whenIdle()
    expect(rec.log.slice(-5)).toEqual([
      'cancel(user)',
      'step/end(1.1)',
      'turn/end(1,aborted)',
      'settled(1,aborted)',
      'idle',
    ])
    expect(model.requests).toHaveLength(1)
    agent.followup('next')
    await agent.whenIdle()
    expect(rec.log.slice(-13)).toEqual([
      'enqueue(next,queued)',
      'running',
      'dequeue(next)',
      'turn/start(2)',
      'dequeue(s)',
      'steering(s)',
      'user(next)',
      'step/start(2.1)',
      'assistant(ok)',
      'step/end(2.1)',
      'turn/end(2,completed)',
      'settled(2,completed)',
      'idle',
    ])
  })
})

describe('R6: deferred wake', () => {
  it('R6: after a followup, status stays idle and the window closed until the wake runs', async () => {
    const { agent, rec } = setup(['ok'])
    agent.followup('a')
    expect(agent.status).toBe('idle')
    expect(agent.acceptsNextStep).toBe(false)
    expect(rec.log).toEqual(['enqueue(a,queued)'])
    await agent.whenIdle()
    expect(rec.log).toEqual(['enqueue(a,queued)', ...oneTurn('a', 'ok')])
  })

  it('R6: two idle steer() calls in one stack become two queued turns, no steering', async () => {
    const { agent, rec } = setup(['one', 'two'])
    agent.steer('s1')
    agent.steer('s2')
    await agent.whenIdle()
    expect(rec.log).toEqual([
      'enqueue(s1,queued)',
      'enqueue(s2,queued)',
      ...oneTurn('s1', 'one', 1).slice(0, -1),
      ...oneTurn('s2', 'two', 2).slice(1),
    ])
  })

  it("R6: a followup then an inject in one stack: the injected user/message comes before the followup's turn/start", async () => {
    const { agent, rec } = setup(['ok'])
    agent.followup('f')
    agent.inject('ctx')
    expect(rec.log).toEqual(['enqueue(f,queued)', 'user(ctx)'])
    await agent.whenIdle()
    expect(rec.log).toEqual(['enqueue(f,queued)', 'user(ctx)', ...oneTurn('f', 'ok')])
  })

  it('R6: whenIdle() already waits for a scheduled wake', async () => {
    const { agent, rec } = setup(['ok'])
    agent.followup('a')
    await agent.whenIdle()
    expect(rec.log.at(-1)).toBe('idle')
    expect(rec.log).toContain('turn/end(1,completed)')
  })

  it('R6: one wake for many sends: a burst is claimed one item at a time in order', async () => {
    const { agent, rec } = setup(['1', '2', '3'])
    agent.followup('a')
    agent.steer('b')
    agent.send('c', FOLLOWUP)
    await agent.whenIdle()
    expect(rec.log.filter((l) => l.startsWith('dequeue('))).toEqual([
      'dequeue(a)',
      'dequeue(b)',
      'dequeue(c)',
    ])
    expect(rec.log.filter((l) => l === 'running' || l === 'idle')).toEqual(['running', 'idle'])
  })
})
