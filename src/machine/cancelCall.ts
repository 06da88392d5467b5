import type { Turn } from './activity.js'
import { decideAt } from './approvals.js'
import type { InputOf } from './inputs.js'
import type { Reduction } from './reduction.js'
import { cancelledResult } from './results.js'
import { takeOutcome } from './toolBatch.js'
import { settled } from './toolLive.js'

/** The running batch's call `callId` that has no result yet, by index (-1: none). */
export const cancellableIndex = (turn: Turn | undefined, callId: string): number => {
  if (turn === undefined || turn.abort || turn.phase !== 'tools') return -1
  const calls = turn.draft.toolCalls
  for (let i = turn.toolResults; i < calls.length; i++)
    if (calls[i]?.id === callId && !settled(turn, i)) return i
  return -1
}

/**
 * R71: `cancelToolCall(callId)`. The call alone is settled `CANCELLED` now (a result its tool
 * delivers later is dropped); its signal aborts and its run stops, so a tool that ignores the
 * signal holds nothing up. A call that waits for approval is decided (durably: a reopened session
 * does not ask again) and never runs. Siblings and the turn go on.
 */
export const cancelCall = (r: Reduction, { callId, reason }: InputOf<'cancel-call'>): void => {
  const a = r.state.activity
  const turn = a?.kind === 'turn' ? a : undefined
  const index = cancellableIndex(turn, callId)
  if (!turn || index < 0) return
  // A call that waits for approval is decided, durably, so a reopened session does not ask again.
  if (turn.approvals?.[index] === 'pending')
    return decideAt(r, turn, index, { callId, decision: 'denied', reason, source: SYSTEM, cancelled: true })
  r.effect({ kind: 'cancel-call', activity: turn.id, step: turn.step, index, reason })
  takeOutcome(r, turn, index, { result: cancelledResult(callId, reason, false), concluded: false })
}

const SYSTEM = Object.freeze({ kind: 'system' })
