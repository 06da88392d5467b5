import type { ToolResultBlock } from '../contracts/messages.js'
import type { InputOf } from './inputs.js'
import { unpause } from './pause.js'
import { withTurn } from './records.js'
import type { Reduction } from './reduction.js'
import { errorResult } from './results.js'
import type { Turn } from './state.js'
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
  let next = turn
  if (turn.approvals?.[index] === 'pending') {
    const data = { turn: turn.turn, step: turn.step, callId, decision: 'denied' as const }
    r.durable({
      type: 'approval/decision',
      data: { ...data, ...(reason === undefined ? {} : { reason }), source: SYSTEM, cancelled: true },
    })
    const approvals = [...turn.approvals]
    approvals[index] = 'denied'
    next = withTurn(turn, { approvals })
    r.setActivity(next)
    if (!approvals.includes('pending')) unpause(r)
  } else {
    r.effect({ kind: 'cancel-call', activity: turn.id, step: turn.step, index, reason })
  }
  const waited = turn.approvals?.[index] === 'pending'
  takeOutcome(r, next, index, { result: cancelledResult(callId, reason, waited), concluded: false })
}

const SYSTEM = Object.freeze({ kind: 'system' })

/** The `CANCELLED` result (R71), as the model reads it: whether the call ran, and why it stopped. */
export const cancelledResult = (
  toolCallId: string,
  reason: string | undefined,
  waited: boolean,
): ToolResultBlock => {
  const what = waited ? 'Cancelled while waiting for approval; it never ran.' : 'Cancelled by the user.'
  return errorResult(toolCallId, 'CANCELLED', reason ? `${what} Reason: ${reason}` : what)
}
