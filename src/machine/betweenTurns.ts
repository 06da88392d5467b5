import type { SettledReason, TurnEndReason } from '../contracts/events.js'
import { beginClaim } from './admission.js'
import type { Input } from './inputs.js'
import { settleContexts, writeEntries } from './outbox.js'
import { withBetween } from './records.js'
import type { Tx } from './reduction.js'
import { activeWork, type Turn } from './state.js'
import { beginStep } from './step.js'

/**
 * Ends a turn: the window closes immediately before `turn/end` (R19); staged context is settled
 * (V1, R13c); `settled` follows unless a retry turn is pending (R24); then the checkpoint (R36).
 */
export const closeTurn = (tx: Tx, turn: Turn, reason: TurnEndReason, error?: unknown): void => {
  tx.set({ window: false, activity: { kind: 'between', id: turn.id, checkpointed: false } })
  tx.durable({ type: 'turn/end', data: { turn: turn.turn, reason } })
  // R26: after a cancel with keepInbox the whole outbox is the next turn's inherited prefix.
  if (!turn.abort?.keepInbox) settleContexts(tx)
  if (!(reason.kind === 'error' && tx.state.retryPending)) {
    tx.live({
      type: 'agent/settled',
      agentId: tx.state.agentId,
      turn: turn.turn,
      reason: settledReason(reason, error),
    })
  }
  tx.effect({ kind: 'checkpoint', activity: turn.id })
}

const settledReason = (reason: TurnEndReason, error: unknown): SettledReason => {
  switch (reason.kind) {
    case 'completed':
    case 'max-tokens':
      return { kind: 'completed' }
    case 'aborted':
    case 'disposed':
      return { kind: 'aborted' }
    case 'error':
      return { kind: 'error', error }
  }
}

/** R36, R13b: the checkpoint is durable; the next move runs after the current call stack. */
export const checkpointDone = (tx: Tx, activity: number): void => {
  const a = tx.state.activity
  if (a?.kind !== 'between' || a.id !== activity || a.checkpointed) return
  tx.setActivity(withBetween(a, { checkpointed: true }))
  tx.effect({ kind: 'schedule', input: { type: 'advance', activity } })
}

/** R36: a failed checkpoint is reported and the agent goes on. */
export const checkpointFailed = (tx: Tx, activity: number, error: unknown): void => {
  const a = tx.state.activity
  if (a?.kind !== 'between' || a.id !== activity || a.checkpointed) return
  tx.live({ type: 'agent/error', agentId: tx.state.agentId, turn: tx.state.lastTurn, step: 0, error })
  checkpointDone(tx, activity)
}

/**
 * The driver's next move (R8, R9, R24): a pending retry turn, else claim the FIFO head while a
 * waking item is queued, else settle staged context and publish `idle`. While disposing, finish.
 */
export const advance = (tx: Tx, activity: number): void => {
  const a = tx.state.activity
  if (a?.kind !== 'between' || a.id !== activity) return
  tx.setActivity(null)
  const s = tx.state
  if (s.disposal !== 'none') {
    // dispose() came between a failed turn and its retry: the retry never opens, so the failed
    // turn is the last of its chain and owes its settled (R24).
    if (s.retryPending) {
      tx.set({ retryPending: false })
      tx.live({
        type: 'agent/settled',
        agentId: tx.state.agentId,
        turn: s.lastTurn,
        reason: { kind: 'error', error: s.retryError },
      })
    }
    return finishDisposal(tx)
  }
  if (s.retryPending) return openRetryTurn(tx)
  if (s.waking > 0) return beginClaim(tx)
  // No turn follows to inherit it (R26): context staged without steering is a durable fact and
  // is appended before idle, so a later idle inject can never overtake it (V1).
  if (settleContexts(tx)) tx.effect({ kind: 'persist' })
  goIdle(tx)
}

const goIdle = (tx: Tx): void => {
  if (tx.state.status === 'idle') return
  tx.set({ status: 'idle' })
  tx.live({ type: 'agent/status', agentId: tx.state.agentId, status: 'idle' })
}

/**
 * `dispose()` with nothing running: append staged context (V1), go idle, then flush and close
 * once the drain in progress is over. Inputs already sent in this call stack (an inject sent
 * right after `dispose()`, say) still wait in the trampoline, behind this reduction's effects;
 * posted as a `last` input (see `trampoline`), the finalize step comes after them and whatever
 * their subscribers send (accepted and discarded, or appended), so the final flush sees them and
 * the store closes after them (R29). It needs no scheduler: an idle `dispose()` on a virtual
 * scheduler nobody flushes still resolves.
 */
export const finishDisposal = (tx: Tx): void => {
  settleContexts(tx)
  goIdle(tx)
  tx.set({ disposal: 'finalizing' })
  tx.effect({ kind: 'post', input: FINALIZE_HOP })
}

const FINALIZE_HOP = Object.freeze({ type: 'dispose/finalize' } as const)
/** The trampoline's `last` predicate for the pipeline's inputs. */
export const isFinalizeHop = (input: Input): boolean => input.type === 'dispose/finalize'

/** The hop of `finishDisposal`, after the drain: flush and close the store, then complete. */
export const finalize = (tx: Tx): void => {
  if (tx.state.disposal === 'finalizing') tx.effect({ kind: 'finalize' })
}

/** R24: a retry turn takes the whole staged outbox as its inherited prefix. */
export const openRetryTurn = (tx: Tx): void => {
  const s = tx.state
  const id = s.nextActivity
  const turn = s.lastTurn + 1
  const outbox = s.outbox
  tx.set({
    nextActivity: id + 1,
    lastTurn: turn,
    retryPending: false,
    window: true,
    outbox: [],
  })
  if (s.status === 'idle') {
    tx.set({ status: 'running' })
    tx.live({ type: 'agent/status', agentId: tx.state.agentId, status: 'running' })
  }
  tx.durable({ type: 'turn/start', data: { turn, trigger: { kind: 'retry' } } })
  writeEntries(tx, outbox, turn)
  beginStep(tx, { id, turn }, 1)
}

/** `retry()`: at once while idle; coalesced inside `requestError`; otherwise ignored. */
export const retry = (tx: Tx): void => {
  const s = tx.state
  if (s.disposal !== 'none') return
  if (s.activity === null) return openRetryTurn(tx)
  const work = activeWork(s)
  if (work?.kind === 'turn' && work.phase === 'request-error' && !work.abort && !s.retryPending) {
    tx.set({ retryPending: true, retryError: work.requestError })
  }
}

/** Whether `retry()` may be called now (the façade throws `AgentBusyError` otherwise). */
export const canRetry = (s: Tx['state']): boolean => {
  if (s.activity === null) return true
  return s.activity.kind === 'turn' && s.activity.phase === 'request-error'
}
