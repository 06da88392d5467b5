import type { ToolResultBlock } from '../contracts/messages.js'
import { errorText } from '../messages/errorText.js'
import type { ToolOutcome, Turn } from './activity.js'
import type { InputOf } from './inputs.js'
import { withTurn } from './records.js'
import type { Reduction } from './reduction.js'
import { errorResult } from './results.js'
import { finishStep } from './step.js'
import { settled, toolEnded } from './toolLive.js'
import { closeTurn } from './turnEnd.js'

/**
 * The turn whose batch is running, aborted or not: a value a tool delivers while the abort is
 * being dispatched is still its result (R25).
 */
const batchTurn = (r: Reduction, activity: number, step: number): Turn | undefined => {
  const a = r.state.activity
  return a?.kind === 'turn' && a.id === activity && a.phase === 'tools' && a.step === step ? a : undefined
}

/** The runner dispatched call `index` of the batch (its `execute` was called). */
export const toolStarted = (r: Reduction, { activity, step, index }: InputOf<'tool/started'>): void => {
  const turn = batchTurn(r, activity, step)
  const call = turn?.draft.toolCalls[index]
  if (!turn || !call || turn.started?.[index] || settled(turn, index)) return
  const started = [...(turn.started ?? [])]
  started[index] = true
  r.setActivity(withTurn(turn, { started }))
  const { agentId } = r.state
  const start = { turn: turn.turn, step, callId: call.id, index, name: call.name }
  r.live({ type: 'agent/tool/start', agentId, ...start })
}

/**
 * One tool outcome. Outcomes are buffered by index and recorded in model order, each call right
 * before its result, so nothing separates them (R21); the last one finishes the step.
 */
export const toolResult = (
  r: Reduction,
  { activity, step, index, result, concluded }: InputOf<'tool/result'>,
): void => {
  const turn = batchTurn(r, activity, step)
  if (turn) takeOutcome(r, turn, index, { result, concluded })
}

/** Buffers call `index`'s outcome, records what is next in model order; the last one ends the step. */
export const takeOutcome = (r: Reduction, turn: Turn, index: number, outcome: ToolOutcome): void => {
  const calls = turn.draft.toolCalls.length
  if (index >= calls || settled(turn, index)) return
  toolEnded(r, turn, index, outcome.result)
  const outcomes = [...(turn.outcomes ?? [])]
  outcomes[index] = outcome
  // After an abort, outcomes are only kept: the unwind records the whole batch (R25).
  if (turn.abort) return r.setActivity(withTurn(turn, { outcomes }))
  const next = recordReady(r, withTurn(turn, { outcomes }))
  if (next.toolResults < calls) r.setActivity(next)
  else finishStep(r, next)
}

/** Records the buffered outcomes that are next in model order. */
const recordReady = (r: Reduction, turn: Turn): Turn => {
  let next = turn
  for (
    let outcome = next.outcomes?.[next.toolResults];
    outcome;
    outcome = next.outcomes?.[next.toolResults]
  ) {
    next = record(r, next, outcome)
  }
  return next
}

const record = (r: Reduction, turn: Turn, outcome: ToolOutcome): Turn => {
  const call = turn.draft.toolCalls[turn.toolResults]
  if (call) {
    const at = { turn: turn.turn, step: turn.step }
    r.durable({ type: 'tool/call', data: { ...at, call } })
    r.durable({ type: 'tool/result', data: { ...at, result: outcome.result } })
  }
  return withTurn(turn, { toolResults: turn.toolResults + 1, concluded: turn.concluded || outcome.concluded })
}

/**
 * R25: an aborted batch. A value a tool delivered before the unwind is its result; a started
 * call without one is `ABORTED`; a call never dispatched is `ABORTED_BEFORE_DISPATCH`.
 */
export const abortBatch = (r: Reduction, turn: Turn): void => {
  let next = turn
  for (let i = turn.toolResults; i < turn.draft.toolCalls.length; i++) {
    const call = turn.draft.toolCalls[i]
    if (!call) break
    let outcome = turn.outcomes?.[i]
    if (!outcome) {
      const result =
        turn.approvals?.[i] === 'pending'
          ? abortedWhilePending(call.id)
          : aborted(call.id, turn.started?.[i] === true)
      toolEnded(r, turn, i, result)
      outcome = { result, concluded: false }
    }
    next = record(r, next, outcome)
  }
}

const aborted = (toolCallId: string, started: boolean): ToolResultBlock =>
  started
    ? errorResult(toolCallId, 'ABORTED', 'Cancelled while running.')
    : errorResult(toolCallId, 'ABORTED_BEFORE_DISPATCH', 'Cancelled before it started.')

/** R64: a call that waited for approval when the turn was cancelled never runs. */
const abortedWhilePending = (toolCallId: string): ToolResultBlock =>
  errorResult(toolCallId, 'ABORTED', 'Cancelled while waiting for approval; it never ran.')

/**
 * R23: the batch runner failed (a defect outside any one tool). Every call still gets its
 * result, so the transcript never holds an unanswered call: an outcome already delivered is
 * kept, the others are `TOOL_ERROR`. Then the step closes (its last drain skipped, R20) and the
 * turn ends with the error.
 */
export const toolsFailed = (r: Reduction, { activity, step, error }: InputOf<'tools/failed'>): void => {
  const turn = batchTurn(r, activity, step)
  if (!turn || turn.abort) return
  const text = errorText(error)
  let next = turn
  for (let i = turn.toolResults; i < turn.draft.toolCalls.length; i++) {
    const call = turn.draft.toolCalls[i]
    if (!call) break
    let outcome = turn.outcomes?.[i]
    if (!outcome) {
      const result = errorResult(call.id, 'TOOL_ERROR', `Not run: the tool runner failed: ${text}`)
      toolEnded(r, turn, i, result)
      outcome = { result, concluded: false }
    }
    next = record(r, next, outcome)
  }
  r.durable({ type: 'step/end', data: { turn: turn.turn, step } })
  r.live({ type: 'agent/error', agentId: r.state.agentId, turn: turn.turn, step, error })
  closeTurn(r, withTurn(next, { stepOpen: false }), { kind: 'error', step, message: text }, error)
}
