import type { AgentMessage } from '../contracts/messages.js'
import type { AbortCause, Turn } from './activity.js'
import { reject } from './admission.js'
import { abortCompaction, noteRequest } from './compaction.js'
import { emptyFifo, fifoToArray } from './fifo.js'
import type { InputOf } from './inputs.js'
import { settleContexts } from './outbox.js'
import { itemMessage } from './queuedItem.js'
import { withClaim, withTurn } from './records.js'
import type { Reduction } from './reduction.js'
import { requestUsage } from './requestUsage.js'
import { activeWork } from './state.js'
import { abortBatch } from './toolBatch.js'
import { closeTurn, isPausedTurn, suspendTurn } from './turnEnd.js'
import { discard } from './waiting.js'

/**
 * R25: effective when work is active, or when `keepInbox` is not set and something is pending.
 * First `cancel-requested`; the clear and the abort follow as a continuation, so sends made by
 * `cancel-requested` subscribers are cleared too (R27).
 */
export const cancel = (r: Reduction, { cause, keepInbox }: InputOf<'cancel'>): void => {
  const s = r.state
  if (s.disposal !== 'none') return
  const pending = s.queue.size > 0 || s.outbox.some((e) => e.kind === 'steering')
  if (!activeWork(s) && s.activity?.kind !== 'compaction' && (keepInbox || !pending)) return
  r.set({ cancelling: true })
  r.live({ type: 'agent/cancel-requested', agentId: r.state.agentId, cause })
  r.effect({ kind: 'post', input: { type: 'cancel/clear', cause, keepInbox } })
}

export const cancelClear = (r: Reduction, { cause, keepInbox, requeue }: InputOf<'cancel/clear'>): void => {
  if (r.state.cancelling) r.set({ cancelling: false })
  if (!keepInbox) discardPending(r, 'cancel')
  // R75: the next move (a claim, or idle with staged context settled) follows the compaction's end.
  if (abortCompaction(r, cause)) return
  // V1: with no turn to wait for, context left without its steering is appended at once.
  if (!activeWork(r.state) && settleContexts(r)) r.effect({ kind: 'persist' })
  abortWork(r, cause, keepInbox, requeue === true)
}

/** Empties the queued FIFO and staged steering, with one `discard` (queued first, R25). */
export const discardPending = (r: Reduction, reason: 'cancel' | 'dispose'): void => {
  const s = r.state
  const messages: AgentMessage[] = fifoToArray(s.queue).map(itemMessage)
  for (const entry of s.outbox) if (entry.kind === 'steering') messages.push(entry.message)
  if (messages.length === 0) return
  r.set({ queue: emptyFifo(), waking: 0, outbox: s.outbox.filter((e) => e.kind === 'context') })
  discard(r, messages, reason)
}

/**
 * Aborts the active admission/turn signal (the first cause wins) and schedules the unwind after
 * the current call stack: the abort listeners of hooks and tools run first (R13b, R25).
 */
export const abortWork = (r: Reduction, cause: AbortCause, keepInbox: boolean, requeue = false): void => {
  const work = activeWork(r.state)
  if (!work || work.abort) return
  // An aborted turn is the last of its chain: a retry requested in `requestError` is dropped (R24).
  const abort = requeue ? { cause, keepInbox, requeue } : { cause, keepInbox }
  r.set({
    activity: work.kind === 'claim' ? withClaim(work, { abort }) : withTurn(work, { abort }),
    retryPending: false,
  })
  r.effect({ kind: 'abort', activity: work.id, cause })
  r.effect({ kind: 'schedule', input: { type: 'unwind', activity: work.id }, late: true })
}

/** A cancelled request wrote no message: its usage goes on the step's end (R73). */
const stepEndOf = (work: Turn) =>
  work.phase === 'model'
    ? { turn: work.turn, step: work.step, usage: requestUsage(work.draft) }
    : { turn: work.turn, step: work.step }

/** The aborted work ends: a claim is a rejected admission (R13); a turn ends `aborted` (R25). */
export const unwind = (r: Reduction, { activity }: InputOf<'unwind'>): void => {
  const work = activeWork(r.state)
  if (!work?.abort || work.id !== activity) return
  if (work.kind === 'claim') return reject(r, work, work.abort.cause)
  r.effect({ kind: 'stop', activity })
  if (work.abort.cause.kind === 'disposed' && isPausedTurn(work)) return suspendTurn(r, work)
  if (work.phase === 'tools') abortBatch(r, work)
  if (work.stepOpen) {
    const end = stepEndOf(work)
    if (end.usage) noteRequest(r, end.usage)
    r.durable({ type: 'step/end', data: end })
  }
  closeTurn(r, work, { kind: work.abort.cause.kind === 'disposed' ? 'disposed' : 'aborted' })
}
