import { describe, expect, it } from 'vitest'
import type { Reduced } from '../../../src/machine/reduce.js'
import { initialState } from '../../../src/machine/state.js'
import { idleTracker } from '../../../src/runtime/idleTracker.js'

const quiet: Reduced = { state: initialState('a'), out: [] }
const busy: Reduced = { state: { ...initialState('a'), wakeScheduled: true }, out: [] }

/** Waits on the tracker; `settled()` tells whether the promise has resolved by now. */
const waitOn = (idle: ReturnType<typeof idleTracker>) => {
  let done = false
  idle.wait(() => {
    done = true
  })
  return () => done
}

describe('idleTracker (when whenIdle() may resolve, R28)', () => {
  it('R28: a quiescent reduction settles the waiters only when no counted input is still waiting', () => {
    const idle = idleTracker()
    idle.entered()
    idle.entered() // a second input arrived during the first one's delivery
    const settled = waitOn(idle)
    idle.delivered(quiet)
    expect(settled()).toBe(false)
    idle.delivered(quiet)
    expect(settled()).toBe(true)
  })

  it('R28: a busy reduction settles nothing', () => {
    const idle = idleTracker()
    idle.entered()
    const settled = waitOn(idle)
    idle.delivered(busy)
    expect(settled()).toBe(false)
    expect(idle.isIdle(busy.state)).toBe(false)
  })

  it('R28: once the pipeline ended, pending and later waits resolve, whatever the last state', () => {
    const idle = idleTracker()
    idle.entered()
    const settled = waitOn(idle)
    idle.end()
    expect(settled()).toBe(true)
    expect(idle.isIdle(busy.state)).toBe(true)
  })
})
