import type { Claim } from './activity.js'
import type { Reduction } from './reduction.js'

/** The deferred wake fired (R6): claim the FIFO head unless work started meanwhile. */
export const wake = (r: Reduction): void => {
  if (r.state.wakeScheduled) r.set({ wakeScheduled: false })
  const s = r.state
  if (s.activity === null && s.disposal === 'none' && s.waking > 0) beginClaim(r)
}

/**
 * R10, first step: open the window, publish `running` when idle. Dequeue and the hook follow as
 * continuations, so calls made by subscribers of each event are processed before the next step
 * (a cancel from a `running` subscriber stops the claim before the hook starts, R14).
 */
export const beginClaim = (r: Reduction): void => {
  const s = r.state
  const claim: Claim = {
    kind: 'claim',
    id: s.nextActivity,
    turn: s.lastTurn + 1,
    inherited: s.outbox.length,
    phase: 'opening',
  }
  r.set({ activity: claim, nextActivity: s.nextActivity + 1, window: true })
  if (s.status === 'idle') {
    r.set({ status: 'running' })
    r.live({ type: 'agent/status', agentId: r.state.agentId, status: 'running' })
  }
  r.effect({ kind: 'post', input: { type: 'claim/dequeue', activity: claim.id } })
}

/**
 * R6: a waking item was queued while nothing runs: one wake is scheduled (unless one is), after
 * the current call stack, so every call of this stack sees the same pre-admission state. While a
 * turn runs or ends, the driver's next move claims it anyway.
 */
export const scheduleWake = (r: Reduction): void => {
  const s = r.state
  if (s.activity !== null || s.wakeScheduled || s.disposal !== 'none') return
  r.set({ wakeScheduled: true })
  r.effect({ kind: 'schedule', input: { type: 'wake' } })
}
