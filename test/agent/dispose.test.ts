import { NEVER, type ObservableInput, VirtualTimeScheduler } from 'rxjs'
import { describe, expect, it } from 'vitest'
import {
  type Agent,
  AgentDisposedError,
  alreadyFlushed,
  memoryStore,
  type PromptDecision,
  type SessionEvent,
  type SessionStore,
} from '../../src/index.js'
import { deferred, INJECT, PARKED, setup } from '../support/agents.js'

const TURN1_OPEN = [
  'enqueue(a,queued)',
  'running',
  'dequeue(a)',
  'turn/start(1)',
  'user(a)',
  'step/start(1.1)',
]

/**
 * A memory store that notes its calls in `order`: `append(<label>)` for each event `label`
 * names, `flush` when a `flush` is given (which answers it; else the memory store's), and `close`
 * (then `close` runs, which may throw).
 */
const recordingStore = (
  order: string[],
  options: {
    readonly label?: (event: SessionEvent) => string | undefined
    readonly flush?: () => ObservableInput<void>
    readonly close?: () => void
  } = {},
): { readonly store: SessionStore; readonly inner: SessionStore } => {
  const inner = memoryStore()
  const store: SessionStore = {
    load: () => inner.load(),
    append: (events) => {
      for (const e of events) {
        const label = options.label?.(e)
        if (label !== undefined) order.push(`append(${label})`)
      }
      inner.append(events)
    },
    flush: () => {
      if (!options.flush) return inner.flush()
      order.push('flush')
      return options.flush()
    },
    close: () => {
      order.push('close')
      options.close?.()
    },
  }
  return { store, inner }
}

describe('R29: dispose()', () => {
  it('R29: on an idle agent it resolves, publishes nothing, and completes events$ and transcript$', async () => {
    const { agent, rec } = setup()
    await agent.dispose()
    expect(rec.log).toEqual([])
    expect(rec.completed).toEqual({ events: true, transcript: true })
  })

  it('R29: during a turn: no cancel-requested, discard, turn/end disposed, V1 context, settled aborted, idle', async () => {
    const { agent, rec } = setup([{ hang: true }])
    agent.followup('a')
    await rec.when('step/start(1.1)')
    agent.steer('s')
    agent.inject('ctx')
    agent.followup('q')
    await agent.dispose()
    expect(rec.log).toEqual([
      ...TURN1_OPEN,
      'enqueue(s,steering)',
      'enqueue(q,queued)',
      'discard(q,s)',
      'step/end(1.1)',
      'turn/end(1,disposed)',
      'user(ctx)',
      'settled(1,aborted)',
      'idle',
    ])
    expect(rec.completed).toEqual({ events: true, transcript: true })
    expect(agent.status).toBe('idle')
  })

  it('R29, R24: dispose() from a subscriber of the failed step/end ends the turn disposed; requestError never starts', async () => {
    const called: number[] = []
    const { agent, rec } = setup([{ error: new Error('model unavailable') }], {
      hooks: { requestError: ({ turn }) => void called.push(turn) },
    })
    let done: Promise<void> | undefined
    agent.transcript$.subscribe((event) => {
      if (event.type === 'step/end') done = agent.dispose()
    })
    agent.followup('a')
    await rec.when('step/end(1.1)')
    await done
    expect(rec.log).toEqual([
      ...TURN1_OPEN,
      'step/end(1.1)',
      'turn/end(1,disposed)',
      'settled(1,aborted)',
      'idle',
    ])
    expect(called).toEqual([])
    expect(rec.completed).toEqual({ events: true, transcript: true })
  })

  it('R29: with parked items and leftover steering while idle: one discard, staged context appended (V1)', async () => {
    const { agent, rec } = setup([{ hang: true }])
    agent.followup('a')
    await rec.when('step/start(1.1)')
    agent.steer('s')
    agent.inject('c')
    agent.cancel({ kind: 'user' }, { keepInbox: true })
    await agent.whenIdle()
    agent.send('p', PARKED)
    const mark = rec.log.length
    await agent.dispose()
    expect(rec.log.slice(mark)).toEqual(['discard(p,s)', 'user(c)'])
  })

  it('R29: during an admission: the claim is rejected, steering discarded, staged context appended', async () => {
    const decision = deferred<PromptDecision>()
    let hookAgent: Agent | undefined
    const { agent, rec } = setup([], {
      hooks: {
        promptSubmit: ({ agent: a }) => {
          hookAgent = a
          return decision.promise
        },
      },
    })
    agent.followup('x')
    await rec.when('dequeue(x)')
    expect(hookAgent).toBe(agent)
    agent.inject('c')
    agent.steer('s')
    await agent.dispose()
    decision.resolve({ kind: 'allow' })
    expect(rec.log).toEqual([
      'enqueue(x,queued)',
      'running',
      'dequeue(x)',
      'enqueue(s,steering)',
      'discard(s)',
      'user(c)',
      'idle',
    ])
  })

  it('R29: in the same stack as a followup: discarded before the wake, no turn runs', async () => {
    const { agent, model, rec } = setup(['ok'])
    agent.followup('f')
    await agent.dispose()
    expect(rec.log).toEqual(['enqueue(f,queued)', 'discard(f)'])
    expect(model.requests).toHaveLength(0)
  })

  it('R29: a user cancel that came first keeps aborted', async () => {
    const { agent, rec } = setup([{ hang: true }])
    agent.followup('a')
    await rec.when('step/start(1.1)')
    agent.cancel({ kind: 'user' })
    await agent.dispose()
    expect(rec.log).toEqual([
      ...TURN1_OPEN,
      'cancel(user)',
      'step/end(1.1)',
      'turn/end(1,aborted)',
      'settled(1,aborted)',
      'idle',
    ])
  })

  it('R29: the turn signal aborts with the internal cause disposed', async () => {
    const reasons: unknown[] = []
    const { agent, rec } = setup([
      (request) => {
        request.signal.addEventListener('abort', () => reasons.push(request.signal.reason))
        return NEVER
      },
    ])
    agent.followup('a')
    await rec.when('step/start(1.1)')
    await agent.dispose()
    expect(reasons).toEqual([{ kind: 'disposed' }])
  })

  it('R29: dispose() is idempotent', async () => {
    const { agent, rec } = setup([{ hang: true }])
    agent.followup('a')
    await rec.when('step/start(1.1)')
    agent.followup('q')
    const first = agent.dispose()
    const second = agent.dispose()
    await Promise.all([first, second])
    await agent.dispose()
    expect(rec.log.filter((l) => l.startsWith('discard'))).toEqual(['discard(q)'])
    expect(rec.log.filter((l) => l.startsWith('turn/end'))).toEqual(['turn/end(1,disposed)'])
  })

  it('R29: calls made while dispose() unwinds are accepted and then discarded; an inject is appended', async () => {
    let agentRef: Agent | undefined
    const ids: string[] = []
    const errors: unknown[] = []
    const { agent, rec } = setup([
      (request) => {
        request.signal.addEventListener('abort', () => {
          try {
            const a = agentRef as Agent
            ids.push(a.followup('late-f'), a.steer('late-s'), a.inject('late-c'), a.send('late-p', PARKED))
          } catch (e) {
            errors.push(e)
          }
        })
        return NEVER
      },
    ])
    agentRef = agent
    agent.followup('a')
    await rec.when('step/start(1.1)')
    await agent.dispose()
    expect(errors).toEqual([])
    expect(ids).toHaveLength(4)
    expect(rec.log).toEqual([
      ...TURN1_OPEN,
      'enqueue(late-f,queued)',
      'discard(late-f)',
      'enqueue(late-s,steering)',
      'discard(late-s)',
      'user(late-c)',
      'enqueue(late-p,queued)',
      'discard(late-p)',
      'step/end(1.1)',
      'turn/end(1,disposed)',
      'settled(1,aborted)',
      'idle',
    ])
    const appended = rec.durable.find((e) => e.type === 'user/message' && e.data.id === ids[2])
    expect(appended).toBeDefined()
  })

  it('R29: a call made from a subscriber after dispose() in the same stack is accepted and discarded; an inject sent there reaches the store before it closes', async () => {
    // Found by `npm run soak`: dispose()'s own flush and close ran depth-first, before an inject
    // already sent in the same stack; the inject was appended after close(), and a followup
    // from its user/message subscriber threw AgentDisposedError before dispose() had resolved.
    const order: string[] = []
    const { store } = recordingStore(order, {
      label: (e) => (e.type === 'user/message' ? e.data.id : undefined),
    })
    const { agent, rec } = setup([], { store })
    const errors: unknown[] = []
    const ids: Record<string, string> = {}
    const label = (m: { readonly content: readonly unknown[] }) => (m.content[0] as { text?: string }).text
    let pending: Promise<void> | undefined
    agent.events$.subscribe((e) => {
      if (e.type === 'agent/inbox/enqueue' && label(e.message) === 'f2') {
        pending = agent.dispose()
        ids.late = agent.inject('late')
      }
    })
    agent.transcript$.subscribe((e) => {
      if (e.type !== 'user/message' || label(e.data) !== 'late') return
      try {
        ids.later = agent.followup('later')
      } catch (error) {
        errors.push(error)
      }
    })
    agent.followup('f1')
    agent.followup('f2')
    await pending
    expect(errors).toEqual([])
    expect(ids.later).toBeDefined()
    expect(rec.log).toEqual([
      'enqueue(f1,queued)',
      'enqueue(f2,queued)',
      'discard(f1,f2)',
      'user(late)',
      'enqueue(later,queued)',
      'discard(later)',
    ])
    expect(order).toEqual([`append(${ids.late})`, 'close'])
  })

  it('R29: an inject accepted while the final flush is in flight is flushed again before close()', async () => {
    const order: string[] = []
    const first = deferred()
    const second = deferred()
    const flushes = [first, second]
    const { store, inner } = recordingStore(order, {
      label: (e) => e.type,
      flush: () => (flushes.shift() ?? deferred()).promise,
    })
    const { agent } = setup([], { store })
    const done = agent.dispose()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(order).toEqual(['flush'])
    const id = agent.inject('late') // accepted: dispose() has not resolved
    first.resolve()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(order).toEqual(['flush', 'append(user/message)', 'flush'])
    second.resolve()
    await done
    expect(order).toEqual(['flush', 'append(user/message)', 'flush', 'close'])
    expect(inner.load().map((e) => (e.type === 'user/message' ? e.data.id : e.type))).toEqual([id])
  })

  it('R29: injects that never stop cannot hold dispose(): after 8 final flushes the store closes and agent/error says so', async () => {
    const order: string[] = []
    let agentRef: Agent | undefined
    const { store, inner } = recordingStore(order, {
      flush: () => {
        agentRef?.inject(`during flush ${order.length}`) // another arrival during every flush
        return new Promise<void>((resolve) => setTimeout(resolve, 0))
      },
    })
    const { agent, rec } = setup([], { store })
    const errors: string[] = []
    agent.events$.subscribe((e) => {
      if (e.type === 'agent/error') errors.push(String((e.error as Error).message))
    })
    agentRef = agent
    await agent.dispose()
    expect(order).toEqual([...Array.from({ length: 8 }, () => 'flush'), 'close'])
    expect(errors).toEqual([
      'dispose(): events kept arriving during the final flush; after 8 flushes the store was closed with the last 1 handed over but not flushed',
    ])
    // Nothing accepted is lost from the session: all 8 are in the transcript and in the store.
    expect(rec.durable.filter((e) => e.type === 'user/message')).toHaveLength(8)
    expect(inner.load()).toHaveLength(8)
  })

  it.each(['flush', 'close'] as const)(
    'R29, R40: when the final %s fails, an inject from an agent/error subscriber stays in session.events, never reaches the closed store, and session.flush() then rejects',
    async (failing) => {
      const order: string[] = []
      const { store } = recordingStore(order, {
        label: (e) => e.type,
        flush: () => {
          if (failing === 'flush') throw new Error('disk full')
          return alreadyFlushed
        },
        close: () => {
          if (failing === 'close') throw new Error('cannot release the lock')
        },
      })
      const { agent, rec } = setup([], { store })
      const ids: string[] = []
      agent.events$.subscribe((e) => {
        if (e.type === 'agent/error') ids.push(agent.inject('after the failure'))
      })
      await agent.dispose()
      expect(order).toEqual(['flush', 'close'])
      expect(ids).toHaveLength(1)
      const appended = agent.session.events.filter((e) => e.type === 'user/message')
      expect(appended.map((e) => e.type === 'user/message' && e.data.id)).toEqual(ids)
      expect(rec.durable.map((e) => e.type)).toEqual(['user/message'])
      expect(rec.completed).toEqual({ events: true, transcript: true })
      // Nothing vouches for the event the store never got (R40: flush rejects while it cannot write).
      const flushed = agent.session.flush()
      await expect(flushed).rejects.toBeInstanceOf(AgentDisposedError)
      await expect(flushed).rejects.toThrow(/1 event never reached its store/)
      expect(order).toEqual(['flush', 'close'])
    },
  )

  it('R29, R40: when the final flush failed with every event handed over, session.flush() rejects and asks the closed store nothing', async () => {
    const order: string[] = []
    const { store } = recordingStore(order, {
      label: (e) => e.type,
      flush: () => {
        throw new Error('disk full')
      },
    })
    const { agent } = setup([], { store })
    agent.inject('fact')
    order.length = 0 // the inject's own flush failed too; what matters is what dispose() does
    await agent.dispose()
    expect(order).toEqual(['flush', 'close'])
    const flushed = agent.session.flush()
    await expect(flushed).rejects.toBeInstanceOf(AgentDisposedError)
    await expect(flushed).rejects.toThrow(
      'session.flush(): the agent is disposed and its final flush failed: disk full',
    )
    expect(order).toEqual(['flush', 'close'])
  })

  it('R29: after a clean dispose(), session.flush() resolves without asking the closed store', async () => {
    const order: string[] = []
    const { store } = recordingStore(order, { label: (e) => e.type, flush: () => alreadyFlushed })
    const { agent } = setup([], { store })
    agent.inject('fact')
    await agent.dispose()
    const before = [...order]
    await expect(agent.session.flush()).resolves.toBeUndefined()
    expect(order).toEqual(before)
    expect(before.at(-1)).toBe('close')
  })

  it('V2: an idle dispose() on a synchronous store has resolved when it returns: a call right after throws', () => {
    // "The same call stack" of R29 means while the agent delivers: a plain call after dispose()
    // returned comes after it resolved (the memory store flushes at once).
    const { agent, rec } = setup([])
    void agent.dispose()
    expect(rec.completed).toEqual({ events: true, transcript: true })
    expect(() => agent.inject('late')).toThrow(AgentDisposedError)
  })

  it('R29: an idle dispose() resolves on a virtual scheduler that nobody flushes', async () => {
    const scheduler = new VirtualTimeScheduler()
    const { agent, rec } = setup([], { scheduler })
    agent.inject('fact')
    await agent.dispose()
    expect(rec.completed).toEqual({ events: true, transcript: true })
    expect(rec.log).toEqual(['user(fact)'])
  })

  it('R29: dispose() waits for the store flush and then closes the store', async () => {
    const order: string[] = []
    const flush = deferred()
    const { store } = recordingStore(order, { flush: () => flush.promise })
    const { agent, rec } = setup([], { store })
    agent.inject('fact')
    let resolved = false
    const done = agent.dispose().then(() => {
      resolved = true
    })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(resolved).toBe(false)
    expect(order).not.toContain('close')
    expect(rec.completed.events).toBe(false)
    flush.resolve()
    await done
    expect(order.at(-1)).toBe('close')
    expect(order.filter((o) => o === 'close')).toHaveLength(1)
    expect(rec.completed).toEqual({ events: true, transcript: true })
  })
})

describe('V2: calls after dispose() resolved', () => {
  const calls: [string, (a: Agent) => unknown][] = [
    ['send', (a) => a.send('x', INJECT)],
    ['followup', (a) => a.followup('x')],
    ['steer', (a) => a.steer('x')],
    ['inject', (a) => a.inject('x')],
    ['retry', (a) => a.retry()],
  ]

  it.each(calls)('V2: %s() throws AgentDisposedError and accepts nothing', async (_name, call) => {
    const { agent, rec } = setup()
    await agent.dispose()
    const events = agent.session.events
    expect(() => call(agent)).toThrow(AgentDisposedError)
    expect(rec.log).toEqual([])
    expect(agent.session.events).toEqual(events)
    await agent.dispose()
    await agent.whenIdle()
  })

  it('V2: the error names the call and says how to go on', async () => {
    const { agent } = setup()
    await agent.dispose()
    expect(() => agent.followup('x')).toThrow(/followup\(\)/)
    try {
      agent.steer('x')
    } catch (e) {
      expect((e as Error).name).toBe('AgentDisposedError')
      expect(e).toBeInstanceOf(Error)
    }
  })

  it('V2: whenIdle() pending across dispose() resolves', async () => {
    const { agent, rec } = setup([{ hang: true }])
    agent.followup('a')
    await rec.when('step/start(1.1)')
    const idle = agent.whenIdle()
    await agent.dispose()
    await expect(idle).resolves.toBeUndefined()
  })
})
