import type { AgentCancelCause, AgentMessage } from '../contracts/messages.js'
import { reject } from './admission.js'
import { closeTurn, finishDisposal } from './betweenTurns.js'
import { emptyFifo, fifoToArray } from './fifo.js'
import { settleContexts } from './outbox.js'
import { withClaim, withTurn } from './records.js'
import type { Tx } from './reduction.js'
import type { AbortCause } from './state.js'
import { activeWork, itemMessage } from './state.js'
import { abortBatch } from './toolBatch.js'

/**
 * R25: effective when work is active, or when `keepInbox` is not set and something is pending.
 * First `cancel-requested`; the clear and the abort follow as a continuation, so sends made by
 * `cancel-requested` subscribers are cleared too (R27).
 */
export const cancel = (tx: Tx, cause: AgentCancelCause, keepInbox: boolean): void => {
  const s = tx.state
  if (s.disposal !== 'none') return
  const pending = s.queue.size > 0 || s.outbox.some((e) => e.kind === 'steering')
  if (!activeWork(s) && (keepInbox || !pending)) return
  tx.live({ type: 'agent/cancel-requested', agentId: tx.state.agentId, cause })
  tx.effect({ kind: 'post', input: { type: 'cancel/clear', cause, keepInbox } })
}

export const cancelClear = (tx: Tx, cause: AgentCancelCause, keepInbox: boolean): void => {
  if (!keepInbox) discardPending(tx)
  // V1: with no turn to wait for, context left without its steering is appended at once.
  if (!activeWork(tx.state) && settleContexts(tx)) tx.effect({ kind: 'persist' })
  abortWork(tx, cause, keepInbox)
}

/** Empties the queued FIFO and staged steering, with one `discard` (queued first, R25). */
export const discardPending = (tx: Tx): void => {
  const s = tx.state
  const messages: AgentMessage[] = fifoToArray(s.queue).map(itemMessage)
  for (const entry of s.outbox) if (entry.kind === 'steering') messages.push(entry.message)
  if (messages.length === 0) return
  tx.set({ queue: emptyFifo(), waking: 0, outbox: s.outbox.filter((e) => e.kind === 'context') })
  tx.live({ type: 'agent/inbox/discard', agentId: tx.state.agentId, messages })
}

/**
 * Aborts the active admission/turn signal (the first cause wins) and schedules the unwind after
 * the current call stack: the abort listeners of hooks and tools run first (R13b, R25).
 */
const abortWork = (tx: Tx, cause: AbortCause, keepInbox: boolean): void => {
  const work = activeWork(tx.state)
  if (!work || work.abort) return
  // An aborted turn is the last of its chain: a retry requested in `requestError` is dropped (R24).
  const abort = { cause, keepInbox }
  tx.set({
    activity: work.kind === 'claim' ? withClaim(work, { abort }) : withTurn(work, { abort }),
    retryPending: false,
  })
  tx.effect({ kind: 'abort', activity: work.id, cause })
  tx.effect({ kind: 'schedule', input: { type: 'unwind', activity: work.id }, late: true })
}

/** The aborted work ends: a claim is a rejected admission (R13); a turn ends `aborted` (R25). */
export const unwind = (tx: Tx, activity: number): void => {
  const work = activeWork(tx.state)
  if (!work?.abort || work.id !== activity) return
  if (work.kind === 'claim') return reject(tx, work)
  tx.effect({ kind: 'stop', activity })
  if (work.phase === 'tools') abortBatch(tx, work)
  if (work.stepOpen) tx.durable({ type: 'step/end', data: { turn: work.turn, step: work.step } })
  closeTurn(tx, work, { kind: work.abort.cause.kind === 'disposed' ? 'disposed' : 'aborted' })
}

/**
 * R29: cancel with the internal cause `disposed` (no `cancel-requested`), discard what is
 * pending, and finish once the driver stopped.
 */
export const dispose = (tx: Tx): void => {
  if (tx.state.disposal !== 'none') return
  tx.set({ disposal: 'disposing', wakeScheduled: false })
  discardPending(tx)
  if (activeWork(tx.state)) return abortWork(tx, { kind: 'disposed' }, false)
  if (tx.state.activity === null) finishDisposal(tx)
  // Between turns: the scheduled `advance` finishes the disposal.
}

export const finalized = (tx: Tx): void => {
  if (tx.state.disposal !== 'finalizing') return
  tx.set({ disposal: 'disposed' })
  tx.effect({ kind: 'complete' })
}

/** R40: a store failure outside a checkpoint, reported at the current position (or 0). */
export const storeFailed = (tx: Tx, error: unknown): void => {
  const work = activeWork(tx.state)
  const turn = work?.turn ?? 0
  const step = work?.kind === 'turn' ? work.step : 0
  tx.live({ type: 'agent/error', agentId: tx.state.agentId, turn, step, error })
}
