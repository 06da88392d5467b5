import { decideAt } from './approvals.js'
import { turnAt } from './callRef.js'
import type { InputOf } from './inputs.js'
import type { Reduction } from './reduction.js'
import { cancelledResult } from './results.js'
import { takeOutcome } from './toolBatch.js'

/**
 * R71: `cancelToolCall(call)`, the call by its position. The call alone is settled `CANCELLED`
 * now (a result its tool delivers later is dropped); its signal aborts and its run stops, so a
 * tool that ignores the signal holds nothing up. A call that waits for approval is decided
 * (durably: a reopened session does not ask again) and never runs. Siblings and the turn go on.
 */
export const cancelCall = (r: Reduction, { activity, step, index, reason }: InputOf<'cancel-call'>): void => {
  const turn = turnAt(r.state, { activity, step, index }, 'unsettled')
  const call = turn?.draft.toolCalls[index]
  if (!turn || !call) return
  const callId = call.id
  // A call that waits for approval is decided, durably, so a reopened session does not ask again.
  if (turn.approvals?.[index] === 'pending')
    return decideAt(r, turn, index, { callId, decision: 'denied', reason, source: SYSTEM, cancelled: true })
  r.effect({ kind: 'cancel-call', activity: turn.id, step: turn.step, index, reason })
  takeOutcome(r, turn, index, { result: cancelledResult(callId, reason, false), concluded: false })
}

const SYSTEM = Object.freeze({ kind: 'system' })
