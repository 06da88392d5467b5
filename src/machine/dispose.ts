import { abortWork, discardPending } from './cancel.js'
import { abortCompaction, dropDueCompaction } from './compaction.js'
import { goIdle } from './idle.js'
import type { Input, InputOf } from './inputs.js'
import { settleContexts } from './outbox.js'
import type { Reduction } from './reduction.js'
import { activeWork } from './state.js'

/**
 * R29: cancel with the internal cause `disposed` (no `cancel-requested`), discard what is
 * pending, and finish once the driver stopped. A release (R57, `keepInbox`) discards nothing:
 * the queue and the staged steering stay as the journal has them, for the next owner.
 */
export const dispose = (r: Reduction, { keepInbox }: InputOf<'dispose'>): void => {
  if (r.state.disposal !== 'none') return
  r.set({ disposal: 'disposing', wakeScheduled: false })
  if (keepInbox) r.set({ releasing: true })
  else discardPending(r, 'dispose')
  // A release unwinds like a keepInbox cancel: a claimed prompt goes back to the queue.
  if (activeWork(r.state)) return abortWork(r, { kind: 'disposed' }, keepInbox === true, keepInbox === true)
  dropDueCompaction(r)
  if (abortCompaction(r, { kind: 'disposed' })) return
  if (r.state.activity === null) beginClosing(r)
  // Between turns: the scheduled `advance` finishes the disposal.
}

/**
 * `dispose()` with nothing running: append staged context (V1), go idle, then flush and close
 * once the drain in progress is over. Inputs already sent in this call stack (an inject sent
 * right after `dispose()`, say) still wait in the trampoline, behind this reduction's effects;
 * posted as a `last` input (see `trampoline`), the closing step comes after them and whatever
 * their subscribers send (accepted and discarded, or appended), so the final flush sees them and
 * the store closes after them (R29). It needs no scheduler: an idle `dispose()` on a virtual
 * scheduler nobody flushes still resolves.
 */
export const beginClosing = (r: Reduction): void => {
  if (!r.state.suspended) settleContexts(r)
  goIdle(r)
  r.set({ disposal: 'closing' })
  r.effect({ kind: 'post', input: CLOSE_STORE })
}

const CLOSE_STORE = Object.freeze({ type: 'dispose/close' } as const)

/** The trampoline's `last` predicate for the pipeline's inputs. */
export const isCloseStore = (input: Input): boolean => input.type === 'dispose/close'

/** The hop of `beginClosing`, after the drain: flush and close the store, then complete. */
export const disposeClose = (r: Reduction): void => {
  if (r.state.disposal === 'closing') r.effect({ kind: 'close-store' })
}

export const disposeClosed = (r: Reduction): void => {
  if (r.state.disposal !== 'closing') return
  r.set({ disposal: 'disposed' })
  r.effect({ kind: 'complete' })
}
