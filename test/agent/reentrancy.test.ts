import { config, of } from 'rxjs'
import { describe, expect, it, vi } from 'vitest'
import type { Agent } from '../../src/index.js'
import { label } from '../../src/testing.js'
import { oneTurn, record, setup } from '../support/agents.js'

/** Runs `call` and records whether it threw. */
const safely = (errors: unknown[], call: () => unknown): void => {
  try {
    call()
  } catch (e) {
    errors.push(e)
  }
}

describe('V3: reentrant calls from subscribers never throw and keep one global order', () => {
  it('V3: a followup from a transcript$ subscriber is delivered after the current event, and runs next', async () => {
    const errors: unknown[] = []
    const { agent, rec } = setup(['one', 'two'])
    agent.transcript$.subscribe((e) => {
      if (e.type === 'user/message' && label(e) === 'user(a)') safely(errors, () => agent.followup('b'))
    })
    agent.followup('a')
    await agent.whenIdle()
    expect(errors).toEqual([])
    expect(rec.log).toEqual([
      'enqueue(a,queued)',
      'running',
      'dequeue(a)',
      'turn/start(1)',
      'user(a)',
      'enqueue(b,queued)',
      'step/start(1.1)',
      'assistant(one)',
      'step/end(1.1)',
      'turn/end(1,completed)',
      'settled(1,completed)',
      ...oneTurn('b', 'two', 2).slice(1),
    ])
  })

  it('V3: an inject from a running subscriber is staged in the open window and written after the prompt', async () => {
    const errors: unknown[] = []
    const { agent, rec } = setup(['ok'])
    agent.events$.subscribe((e) => {
      if (e.type === 'agent/status' && e.status === 'running') safely(errors, () => agent.inject('ctx'))
    })
    agent.followup('a')
    await agent.whenIdle()
    expect(errors).toEqual([])
    expect(rec.log).toEqual([
      'enqueue(a,queued)',
      'running',
      'dequeue(a)',
      'turn/start(1)',
      'user(a)',
      'user(ctx)',
      'step/start(1.1)',
      'assistant(ok)',
      'step/end(1.1)',
      'turn/end(1,completed)',
      'settled(1,completed)',
      'idle',
    ])
  })

  it('V3: a cancel from a step/start subscriber aborts before any model event is recorded', async () => {
    const errors: unknown[] = []
    const { agent, model, rec } = setup(['never recorded'])
    agent.transcript$.subscribe((e) => {
      if (e.type === 'step/start') safely(errors, () => agent.cancel({ kind: 'user' }))
    })
    agent.followup('a')
    await agent.whenIdle()
    expect(errors).toEqual([])
    expect(rec.log).toEqual([
      'enqueue(a,queued)',
      'running',
      'dequeue(a)',
      'turn/start(1)',
      'user(a)',
      'step/start(1.1)',
      'cancel(user)',
      'step/end(1.1)',
      'turn/end(1,aborted)',
      'settled(1,aborted)',
      'idle',
    ])
    expect(model.requests.length).toBeLessThanOrEqual(1)
  })

  it('V3: dispose() from a settled subscriber resolves and completes the streams', async () => {
    const errors: unknown[] = []
    const { agent, rec } = setup(['ok'])
    let disposed: Promise<void> | undefined
    agent.events$.subscribe((e) => {
      if (e.type === 'agent/settled') safely(errors, () => (disposed = agent.dispose()))
    })
    agent.followup('a')
    agent.followup('b')
    await agent.whenIdle()
    await disposed
    expect(errors).toEqual([])
    expect(rec.log).toEqual([
      'enqueue(a,queued)',
      'enqueue(b,queued)',
      ...oneTurn('a', 'ok').slice(0, -1),
      'discard(b)',
      'idle',
    ])
    expect(rec.completed).toEqual({ events: true, transcript: true })
  })

  it('V3: dispose() from a step/start subscriber ends the turn disposed', async () => {
    const errors: unknown[] = []
    const { agent, rec } = setup(['never recorded'])
    let disposed: Promise<void> | undefined
    agent.transcript$.subscribe((e) => {
      if (e.type === 'step/start') safely(errors, () => (disposed = agent.dispose()))
    })
    agent.followup('a')
    await agent.whenIdle()
    await disposed
    expect(errors).toEqual([])
    expect(rec.log).toEqual([
      'enqueue(a,queued)',
      'running',
      'dequeue(a)',
      'turn/start(1)',
      'user(a)',
      'step/start(1.1)',
      'step/end(1.1)',
      'turn/end(1,disposed)',
      'settled(1,aborted)',
      'idle',
    ])
  })

  it('V3: calls made during one delivery are delivered after it, in call order, before the top-level call returns', () => {
    const errors: unknown[] = []
    const { agent, rec } = setup(['1', '2', '3'])
    let atReturn: string[] = []
    agent.events$.subscribe((e) => {
      if (e.type === 'agent/inbox/enqueue' && label(e) === 'enqueue(a,queued)') {
        safely(errors, () => agent.followup('b'))
        safely(errors, () => agent.inject('c'))
        safely(errors, () => agent.steer('d'))
        atReturn = rec.log.slice()
      }
    })
    const id = agent.followup('a')
    expect(typeof id).toBe('string')
    expect(errors).toEqual([])
    const delivered = rec.log.slice()
    agent.cancel({ kind: 'user' })
    expect(atReturn).toEqual(['enqueue(a,queued)'])
    expect(delivered).toEqual(['enqueue(a,queued)', 'enqueue(b,queued)', 'user(c)', 'enqueue(d,queued)'])
  })

  // Decision (docs/decisions.md, ordering): reentrant calls are trampolined depth-first. A call's own
  // follow-ups (calls made while its events are delivered) run before calls made after it, so
  // R10 ("after the calls they made were processed") and R25 ("work queued by its subscribers is
  // cleared too") hold. Siblings still run in call order.
  it('V3: follow-ups of a reentrant call (made while its events are delivered) run before its later siblings, depth-first', () => {
    const { agent, rec } = setup()
    agent.events$.subscribe((e) => {
      if (e.type !== 'agent/inbox/enqueue') return
      if (label(e) === 'enqueue(a,queued)') {
        agent.followup('b')
        agent.inject('c')
      }
      // b2 is a follow-up of b (made while b's enqueue is delivered): it runs before b's sibling c.
      if (label(e) === 'enqueue(b,queued)') agent.followup('b2')
    })
    agent.followup('a')
    const delivered = rec.log.slice()
    agent.cancel({ kind: 'user' })
    expect(delivered).toEqual(['enqueue(a,queued)', 'enqueue(b,queued)', 'enqueue(b2,queued)', 'user(c)'])
  })

  it('V3: every subscriber sees the same single order, including the one making the calls', async () => {
    const { agent, rec } = setup(['one', 'two'])
    const other = record(agent)
    const liveOnly: string[] = []
    agent.events$.subscribe((e) => {
      if (e.type !== 'agent/stream/delta') liveOnly.push(label(e))
    })
    agent.transcript$.subscribe((e) => {
      if (e.type === 'turn/end' && e.data.turn === 1) agent.followup('b')
      if (e.type === 'step/start' && e.data.turn === 2) agent.inject('late')
    })
    agent.events$.subscribe((e) => {
      if (e.type === 'agent/inbox/dequeue') agent.inject(`after-${label(e)}`)
    })
    agent.followup('a')
    await agent.whenIdle()
    expect(other.log).toEqual(rec.log)
    expect(liveOnly).toEqual(rec.log.filter((l) => rec.live.some((e) => label(e) === l)))
    expect(rec.log).toEqual([
      'enqueue(a,queued)',
      'running',
      'dequeue(a)',
      'turn/start(1)',
      'user(a)',
      'user(after-dequeue(a))',
      'step/start(1.1)',
      'assistant(one)',
      'step/end(1.1)',
      'turn/end(1,completed)',
      'settled(1,completed)',
      'enqueue(b,queued)',
      'dequeue(b)',
      'turn/start(2)',
      'user(b)',
      'user(after-dequeue(b))',
      'step/start(2.1)',
      'assistant(two)',
      'user(late)',
      'step/end(2.1)',
      'turn/end(2,completed)',
      'settled(2,completed)',
      'idle',
    ])
  })

  it('V3: subscribing to transcript$ during a delivery sees every seq exactly once, in order', async () => {
    const { agent } = setup(['one', 'two'])
    const late: number[] = []
    let subscribed = false
    agent.transcript$.subscribe((e) => {
      if (e.type === 'step/start' && !subscribed) {
        subscribed = true
        agent.transcript$.subscribe((x) => late.push(x.seq))
      }
    })
    agent.followup('a')
    agent.followup('b')
    await agent.whenIdle()
    const all = agent.session.events.map((e) => e.seq)
    expect(late).toEqual(all)
    expect(all).toEqual(all.map((_, i) => i + 1))
  })

  it('V3: calls from inside a model request (an effect) are processed after it, without throwing', async () => {
    let agentRef: Agent | undefined
    const errors: unknown[] = []
    const { agent, rec } = setup([
      () => {
        safely(errors, () => agentRef?.steer('from-model'))
        return of({ type: 'text' as const, text: 'one' })
      },
      'two',
    ])
    agentRef = agent
    agent.followup('a')
    await agent.whenIdle()
    expect(errors).toEqual([])
    expect(rec.log.slice(5, 13)).toEqual([
      'step/start(1.1)',
      'enqueue(from-model,steering)',
      'assistant(one)',
      'dequeue(from-model)',
      'steering(from-model)',
      'step/end(1.1)',
      'step/start(1.2)',
      'assistant(two)',
    ])
  })
})

describe('V3: a throwing subscriber changes nothing for the agent or the other subscribers', () => {
  it('V3: a throwing subscriber is reported to config.onUnhandledError; the run and the other subscribers are unaffected', async () => {
    const reported: unknown[] = []
    const previous = config.onUnhandledError
    config.onUnhandledError = (error) => reported.push(error)
    try {
      const { agent, rec } = setup(['ok', 'ok2'])
      agent.events$.subscribe(() => {
        throw new Error('live subscriber broke')
      })
      agent.transcript$.subscribe(() => {
        throw new Error('durable subscriber broke')
      })
      agent.status$.subscribe(() => {
        throw new Error('status subscriber broke')
      })
      const after = record(agent)
      agent.followup('a')
      await agent.whenIdle()
      agent.followup('b')
      await agent.whenIdle()
      const expected = [
        'enqueue(a,queued)',
        ...oneTurn('a', 'ok', 1),
        'enqueue(b,queued)',
        ...oneTurn('b', 'ok2', 2),
      ]
      expect(rec.log).toEqual(expected)
      expect(after.log).toEqual(expected)
      expect(agent.status).toBe('idle')
      await vi.waitFor(() => expect(reported.length).toBeGreaterThanOrEqual(expected.length))
      const messages = new Set(reported.map((e) => (e as Error).message))
      expect(messages).toEqual(
        new Set(['live subscriber broke', 'durable subscriber broke', 'status subscriber broke']),
      )
    } finally {
      await new Promise((resolve) => setTimeout(resolve, 0))
      config.onUnhandledError = previous
    }
  })

  it('V3: a subscriber that throws after a reentrant call still lets that call be processed', async () => {
    const reported: unknown[] = []
    const previous = config.onUnhandledError
    config.onUnhandledError = (error) => reported.push(error)
    try {
      const { agent, rec } = setup(['ok', 'ok2'])
      agent.transcript$.subscribe((e) => {
        if (e.type === 'turn/end' && e.data.turn === 1) {
          agent.followup('b')
          throw new Error('after the call')
        }
      })
      agent.followup('a')
      await agent.whenIdle()
      expect(rec.log).toEqual([
        'enqueue(a,queued)',
        ...oneTurn('a', 'ok', 1).slice(0, -1),
        'enqueue(b,queued)',
        ...oneTurn('b', 'ok2', 2).slice(1),
      ])
      await vi.waitFor(() => expect(reported).toHaveLength(1))
    } finally {
      await new Promise((resolve) => setTimeout(resolve, 0))
      config.onUnhandledError = previous
    }
  })
})
