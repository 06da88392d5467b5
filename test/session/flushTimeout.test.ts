/**
 * Every wait on a store is bounded (`createAgent({flushTimeoutMs})`): a store whose `flush()`
 * never finishes cannot hold a checkpoint, `session.flush()` or `dispose()` forever (R29, R36,
 * R40). Its failure is reported as a store failure, `FlushTimeoutError`, and nothing is lost.
 */
import { NEVER } from 'rxjs'
import { describe, expect, it } from 'vitest'
import {
  type AgentErrorEvent,
  createAgent,
  FlushTimeoutError,
  InvalidInputError,
  type SessionEvent,
  type SessionStore,
} from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'

/** A store whose flush never finishes (a hung disk, a lost connection). */
const hungStore = () => {
  const appended: SessionEvent[] = []
  const calls = { flush: 0, close: 0 }
  const store: SessionStore = {
    load: () => [],
    append: (events) => {
      appended.push(...events)
    },
    flush: () => {
      calls.flush++
      return NEVER
    },
    close: () => {
      calls.close++
    },
  }
  return { store, appended, calls }
}

describe('flushTimeoutMs', () => {
  it('R29, R40: dispose() resolves when the final flush never finishes; the failure is reported and the store closed', async () => {
    const { store, calls, appended } = hungStore()
    const agent = createAgent({ model: scriptedModel([]), store, flushTimeoutMs: 30 })
    const errors: AgentErrorEvent[] = []
    agent.events$.subscribe((e) => {
      if (e.type === 'agent/error') errors.push(e)
    })
    agent.inject('a fact')
    await agent.dispose()
    expect(calls.close).toBe(1)
    expect(errors.map((e) => e.error)).toEqual([expect.any(FlushTimeoutError), expect.any(FlushTimeoutError)])
    expect(errors[0]?.error).toMatchObject({ timeoutMs: 30 })
    expect(appended.map((e) => e.type)).toEqual(['user/message'])
    await expect(agent.session.flush()).rejects.toThrow(/final flush failed: .*did not finish within 30 ms/)
  })

  it('R36, R40: a checkpoint that times out is reported and the next turn runs', async () => {
    const { store } = hungStore()
    const agent = createAgent({ model: scriptedModel(['one', 'two']), store, flushTimeoutMs: 20 })
    const errors: unknown[] = []
    agent.events$.subscribe((e) => {
      if (e.type === 'agent/error') errors.push(e.error)
    })
    agent.followup('a')
    agent.followup('b')
    await agent.whenIdle()
    const ends = agent.session.events.filter((e) => e.type === 'turn/end')
    expect(ends).toHaveLength(2)
    expect(errors).toEqual([expect.any(FlushTimeoutError), expect.any(FlushTimeoutError)])
  })

  it('R40: session.flush() rejects with FlushTimeoutError', async () => {
    const { store } = hungStore()
    const agent = createAgent({ model: scriptedModel([]), store, flushTimeoutMs: 10 })
    await expect(agent.session.flush()).rejects.toBeInstanceOf(FlushTimeoutError)
  })

  it('Infinity waits forever: no timer is armed', async () => {
    const { store } = hungStore()
    const agent = createAgent({ model: scriptedModel([]), store, flushTimeoutMs: Number.POSITIVE_INFINITY })
    const settled = await Promise.race([
      agent.session.flush().then(
        () => 'resolved',
        () => 'rejected',
      ),
      new Promise((resolve) => setTimeout(() => resolve('pending'), 50)),
    ])
    expect(settled).toBe('pending')
  })

  it.each([0, -1, Number.NaN, '10'])('R2: flushTimeoutMs %s is refused', (value) => {
    expect(() => createAgent({ model: scriptedModel([]), flushTimeoutMs: value as number })).toThrow(
      InvalidInputError,
    )
    expect(() => createAgent({ model: scriptedModel([]), flushTimeoutMs: value as number })).toThrow(
      /options\.flushTimeoutMs: expected a number of milliseconds > 0/,
    )
  })
})
