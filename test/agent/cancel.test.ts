import { NEVER, type Observable } from 'rxjs'
import { describe, expect, it } from 'vitest'
import type { Agent, ModelEvent, ModelRequest } from '../../src/index.js'
import { gate, PARKED, setup } from '../support/agents.js'
import { aborted, answered, oneTurn, opening } from '../support/labels.js'

/** A model reply that never answers, and runs `onAbort` from its request's abort listener. */
const hangWith =
  (onAbort: (request: ModelRequest) => void) =>
  (request: ModelRequest): Observable<ModelEvent> => {
    request.signal.addEventListener('abort', () => onAbort(request))
    return NEVER
  }

/** Starts turn 1 on a reply that never answers and resolves once its step is open. */
const running = async (
  script: Parameters<typeof setup>[0] = [],
  options: Parameters<typeof setup>[1] = {},
) => {
  const ctx = setup([{ hang: true }, ...script], options)
  ctx.agent.followup('a')
  await ctx.rec.when('step/start(1.1)')
  return ctx
}

describe('R25: cancel', () => {
  it('R25: with nothing active or pending, cancel does nothing at all', async () => {
    const { agent, rec } = setup()
    agent.cancel({ kind: 'user' })
    agent.cancel({ kind: 'parent' }, { keepInbox: true })
    await agent.whenIdle()
    expect(rec.log).toEqual([])
  })

  it('R25: with keepInbox and only parked items pending, cancel does nothing at all', async () => {
    const { agent, rec } = setup()
    agent.send('p', PARKED)
    agent.cancel({ kind: 'user' }, { keepInbox: true })
    await agent.whenIdle()
    expect(rec.log).toEqual(['enqueue(p,queued)'])
  })

  it('R25: while idle with parked items, cancel publishes cancel-requested then one discard, no status', async () => {
    const { agent, rec } = setup()
    agent.send('p1', PARKED)
    agent.send('p2', PARKED)
    agent.cancel({ kind: 'parent' })
    expect(rec.log).toEqual(['enqueue(p1,queued)', 'enqueue(p2,queued)', 'cancel(parent)', 'discard(p1,p2)'])
    await agent.whenIdle()
    expect(rec.log).toHaveLength(4)
    agent.cancel({ kind: 'parent' })
    expect(rec.log).toHaveLength(4)
  })

  it('R25: during a turn, without keepInbox: discard (queued, then steering), unwind, V1 context, settled, idle', async () => {
    const { agent, rec } = await running()
    agent.steer('s')
    agent.inject('ctx')
    agent.followup('q')
    agent.cancel({ kind: 'user' })
    // R13b: the unwind is not synchronous inside cancel().
    expect(rec.log.slice(6)).toEqual([
      'enqueue(s,steering)',
      'enqueue(q,queued)',
      'cancel(user)',
      'discard(q,s)',
    ])
    await agent.whenIdle()
    expect(rec.log).toEqual([
      ...opening('a'),
      'enqueue(s,steering)',
      'enqueue(q,queued)',
      'cancel(user)',
      'discard(q,s)',
      'step/end(1.1)',
      'turn/end(1,aborted)',
      'user(ctx)',
      'settled(1,aborted)',
      'idle',
    ])
  })

  it('R25: the turn signal aborts with a frozen copy of the cause, and the first cause wins', async () => {
    const reasons: unknown[] = []
    const { agent, rec } = setup([hangWith((r) => reasons.push(r.signal.reason))])
    agent.followup('a')
    await rec.when('step/start(1.1)')
    agent.cancel({ kind: 'parent' })
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
    expect(reasons).toEqual([{ kind: 'parent' }])
    expect(Object.isFrozen(reasons[0])).toBe(true)
    expect(rec.log.filter((l) => l.startsWith('turn/end') || l.startsWith('settled'))).toEqual([
      'turn/end(1,aborted)',
      'settled(1,aborted)',
    ])
  })

  it('R25: a turn aborted between steps (in the step hook) ends without a step/end', async () => {
    const { agent, rec } = setup(['one'], {
      hooks: {
        step: ({ agent: a }) => {
          a.cancel({ kind: 'user' })
        },
      },
    })
    agent.followup('a')
    await agent.whenIdle()
    expect(rec.log).toEqual([
      'enqueue(a,queued)',
      'running',
      'dequeue(a)',
      'turn/start(1)',
      'user(a)',
      'cancel(user)',
      'turn/end(1,aborted)',
      'settled(1,aborted)',
      'idle',
    ])
  })

  it('R25: a model that answers after the abort is ignored', async () => {
    const g = gate()
    const { agent, rec } = setup([g.reply])
    agent.followup('a')
    await rec.when('step/start(1.1)')
    agent.cancel({ kind: 'user' })
    g.release('too late')
    await agent.whenIdle()
    expect(rec.log).not.toContain('assistant(too late)')
    expect(rec.log.slice(6)).toEqual(['cancel(user)', ...aborted(), 'idle'])
  })

  it('R25: a cancel in the same stack as a followup discards it before the wake; no turn runs', async () => {
    const { agent, model, rec } = setup(['ok'])
    agent.followup('f')
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
    expect(rec.log).toEqual(['enqueue(f,queued)', 'cancel(user)', 'discard(f)'])
    expect(model.requests).toHaveLength(0)
    expect(agent.status).toBe('idle')
  })

  it('R25: with keepInbox in the same stack as a followup, the cancel does nothing and the turn runs', async () => {
    const { agent, rec } = setup(['ok'])
    agent.followup('f')
    agent.cancel({ kind: 'user' }, { keepInbox: true })
    await agent.whenIdle()
    expect(rec.log).toEqual(['enqueue(f,queued)', ...oneTurn('f', 'ok')])
  })

  it('R25: a cancel between turns (from a settled subscriber) discards the queue and the driver goes idle', async () => {
    const { agent, model, rec } = setup(['one', 'two'])
    agent.events$.subscribe((e) => {
      if (e.type === 'agent/settled' && e.turn === 1) agent.cancel({ kind: 'user' })
    })
    agent.followup('a')
    agent.followup('b')
    await agent.whenIdle()
    expect(rec.log).toEqual([
      'enqueue(a,queued)',
      'enqueue(b,queued)',
      ...oneTurn('a', 'one').slice(0, -1),
      'cancel(user)',
      'discard(b)',
      'idle',
    ])
    expect(model.requests).toHaveLength(1)
  })

  /** Turn 1's request fails and a user cancel ends it (from the hook or before it starts). */
  const abortedAfterFailure = [
    ...opening('a'),
    'step/end(1.1)',
    'cancel(user)',
    'turn/end(1,aborted)',
    'settled(1,aborted)',
    'idle',
  ]

  it('R25, R24: a cancel after retry() in requestError wins: the turn ends aborted and no retry turn opens', async () => {
    const { agent, model, rec } = setup([{ error: new Error('flaky') }, 'retried'], {
      hooks: {
        requestError: ({ agent: a }) => {
          a.retry()
          a.cancel({ kind: 'user' })
        },
      },
    })
    agent.followup('a')
    await agent.whenIdle()
    expect(rec.log).toEqual(abortedAfterFailure)
    expect(model.requests).toHaveLength(1)
  })

  it('R25, R24: a cancel from a subscriber of the failed step/end ends the turn aborted; requestError never starts', async () => {
    const called: number[] = []
    const { agent, model, rec } = setup([{ error: new Error('flaky') }, 'unused'], {
      hooks: { requestError: ({ turn }) => void called.push(turn) },
    })
    agent.transcript$.subscribe((event) => {
      if (event.type === 'step/end') agent.cancel({ kind: 'user' })
    })
    agent.followup('a')
    await agent.whenIdle()
    expect(rec.log).toEqual(abortedAfterFailure)
    expect(called).toEqual([])
    expect(model.requests).toHaveLength(1)
  })

  it('R25: a cancel from inside promptSubmit rejects the admission even though the hook then allows', async () => {
    const { agent, model, rec } = setup(['ok'], {
      hooks: {
        promptSubmit: ({ agent: a }) => {
          a.cancel({ kind: 'user' })
          return { kind: 'allow' }
        },
      },
    })
    agent.followup('x')
    await agent.whenIdle()
    expect(rec.log).toEqual(['enqueue(x,queued)', 'running', 'dequeue(x)', 'cancel(user)', 'idle'])
    expect(model.requests).toHaveLength(0)
  })
})

describe('R26: keepInbox', () => {
  it('R26: nothing is discarded; waking items run right after, with the staged outbox as inherited prefix', async () => {
    const { agent, rec } = await running(['ok'])
    agent.steer('s')
    agent.inject('ctx')
    agent.followup('q')
    agent.cancel({ kind: 'user' }, { keepInbox: true })
    await agent.whenIdle()
    expect(rec.log).toEqual([
      ...opening('a'),
      'enqueue(s,steering)',
      'enqueue(q,queued)',
      'cancel(user)',
      ...aborted(),
      'dequeue(q)',
      'turn/start(2)',
      'dequeue(s)',
      'steering(s)',
      'user(ctx)',
      'user(q)',
      'step/start(2.1)',
      ...answered('ok', 2),
      'idle',
    ])
  })

  // Decision (docs/decisions.md, cancel): with keepInbox staged context is the inherited prefix of a turn
  // that follows at once; when none follows, it is appended before idle (V1), so a later idle
  // inject can never overtake it.
  it('R26, V1: with only context staged and nothing queued, the context is appended before idle', async () => {
    const { agent, rec } = await running(['ok'])
    agent.inject('ctx')
    agent.cancel({ kind: 'user' }, { keepInbox: true })
    await agent.whenIdle()
    expect(rec.log.slice(6)).toEqual(['cancel(user)', ...aborted(), 'user(ctx)', 'idle'])
    agent.inject('later')
    expect(rec.log.slice(12)).toEqual(['user(later)'])
  })
})

describe('R27: work accepted after the clear survives', () => {
  it('R27: sends from cancel-requested subscribers are cleared too', async () => {
    const { agent, rec } = await running()
    agent.events$.subscribe((e) => {
      if (e.type === 'agent/cancel-requested') agent.followup('from-subscriber')
    })
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
    expect(rec.log.slice(6)).toEqual([
      'cancel(user)',
      'enqueue(from-subscriber,queued)',
      'discard(from-subscriber)',
      ...aborted(),
      'idle',
    ])
  })

  it('R27, R13b: a followup sent from an abort-signal listener survives and runs next, with no idle', async () => {
    let agentRef: Agent | undefined
    const { agent, rec } = setup([hangWith(() => agentRef?.followup('from-listener')), 'ok'])
    agentRef = agent
    agent.followup('a')
    await rec.when('step/start(1.1)')
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
    expect(rec.log).toEqual([
      ...opening('a'),
      'cancel(user)',
      'enqueue(from-listener,queued)',
      ...aborted(),
      ...oneTurn('from-listener', 'ok', 2).slice(1),
    ])
  })

  it('R27, R13b: a followup sent from the promptSubmit signal listener survives and runs next, with no idle', async () => {
    let agentRef: Agent | undefined
    const { agent, rec } = setup(['ok'], {
      hooks: {
        promptSubmit: ({ content, signal }) => {
          if (content[0]?.type === 'text' && content[0].text !== 'x') return undefined
          signal.addEventListener('abort', () => agentRef?.followup('from-listener'))
          return NEVER
        },
      },
    })
    agentRef = agent
    agent.followup('x')
    await rec.when('dequeue(x)')
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
    expect(rec.log).toEqual([
      'enqueue(x,queued)',
      'running',
      'dequeue(x)',
      'cancel(user)',
      'enqueue(from-listener,queued)',
      ...oneTurn('from-listener', 'ok', 1).slice(1),
    ])
  })

  it('R27: a followup sent right after cancel() returns survives and runs next, with no idle', async () => {
    const { agent, rec } = await running(['ok'])
    agent.cancel({ kind: 'user' })
    agent.followup('later')
    await agent.whenIdle()
    expect(rec.log).toEqual([
      ...opening('a'),
      'cancel(user)',
      'enqueue(later,queued)',
      ...aborted(),
      ...oneTurn('later', 'ok', 2).slice(1),
    ])
  })

  it('R13b: a followup sent from a turn/end subscriber of an aborted turn runs next, with no idle', async () => {
    const { agent, rec } = await running(['ok'])
    agent.transcript$.subscribe((e) => {
      if (e.type === 'turn/end' && e.data.turn === 1) agent.followup('next')
    })
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
    expect(rec.log).toEqual([
      ...opening('a'),
      'cancel(user)',
      ...aborted(),
      'enqueue(next,queued)',
      ...oneTurn('next', 'ok', 2).slice(1),
    ])
  })
})

describe('R13c: leftover steering', () => {
  it('R13c: steering left after an aborted turn does not wake the agent nor delay whenIdle()', async () => {
    const { agent, model, rec } = await running(['ok'])
    agent.steer('s')
    agent.cancel({ kind: 'user' }, { keepInbox: true })
    await agent.whenIdle()
    expect(agent.status).toBe('idle')
    expect(model.requests).toHaveLength(1)
    expect(rec.log.at(-1)).toBe('idle')
  })

  it('R13c: steering left after a failed turn waits for the next admitted prompt as its inherited prefix', async () => {
    const g = gate()
    const { agent, rec } = setup([g.reply, 'ok'])
    agent.followup('a')
    await rec.when('step/start(1.1)')
    agent.steer('s')
    agent.inject('c')
    g.fail(new Error('network down'))
    await agent.whenIdle()
    expect(rec.log).toEqual([
      ...opening('a'),
      'enqueue(s,steering)',
      'step/end(1.1)',
      'error(1.1)',
      'turn/end(1,error)',
      'settled(1,error)',
      'idle',
    ])
    agent.followup('b')
    await agent.whenIdle()
    expect(rec.log.slice(12)).toEqual([
      'enqueue(b,queued)',
      'running',
      'dequeue(b)',
      'turn/start(2)',
      'dequeue(s)',
      'steering(s)',
      'user(c)',
      'user(b)',
      'step/start(2.1)',
      ...answered('ok', 2),
      'idle',
    ])
  })

  it('R13c, V7: leftover steering is reported in a discard by a later cancel; its staged context is appended (V1)', async () => {
    const { agent, rec } = await running()
    agent.steer('s')
    agent.inject('c')
    agent.cancel({ kind: 'user' }, { keepInbox: true })
    await agent.whenIdle()
    const mark = rec.log.length
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
    expect(rec.log.slice(mark)).toEqual(['cancel(user)', 'discard(s)', 'user(c)'])
    expect(agent.status).toBe('idle')
  })

  it('R13c: retry() while idle takes the leftover outbox as the retry turn’s inherited prefix', async () => {
    const { agent, rec } = await running(['ok'])
    agent.steer('s')
    agent.cancel({ kind: 'user' }, { keepInbox: true })
    await agent.whenIdle()
    const mark = rec.log.length
    agent.retry()
    await agent.whenIdle()
    expect(rec.log.slice(mark)).toEqual([
      'running',
      'turn/start(2,retry)',
      'dequeue(s)',
      'steering(s)',
      'step/start(2.1)',
      ...answered('ok', 2),
      'idle',
    ])
  })
})
