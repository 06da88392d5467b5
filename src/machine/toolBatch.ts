import type { ToolResultBlock } from '../contracts/messages.js'
import { errorText } from '../messages/errorText.js'
import { closeTurn } from './betweenTurns.js'
import { withTurn } from './records.js'
import type { Tx } from './reduction.js'
import type { ToolOutcome, Turn } from './state.js'
import { finishStep } from './step.js'

/**
 * The turn whose batch is running, aborted or not: a value a tool delivers while the abort is
 * being dispatched is still its result (R25).
 */
const batchTurn = (tx: Tx, activity: number, step: number): Turn | undefined => {
  const a = tx.state.activity
  return a?.kind === 'turn' && a.id === activity && a.phase === 'tools' && a.step === step ? a : undefined
}

/** The runner dispatched call `index` of the batch (its `execute` was called). */
export const toolStarted = (tx: Tx, activity: number, step: number, index: number): void => {
  const turn = batchTurn(tx, activity, step)
  if (!turn || turn.started?.[index]) return
  const started = [...(turn.started ?? [])]
  started[index] = true
  tx.setActivity(withTurn(turn, { started }))
}

/**
 * One tool outcome. Outcomes are buffered by index and recorded in model order, each call right
 * before its result, so nothing separates them (R21); the last one finishes the step.
 */
export const toolResult = (
  tx: Tx,
  activity: number,
  step: number,
  index: number,
  result: ToolResultBlock,
  concluded: boolean,
): void => {
  const turn = batchTurn(tx, activity, step)
  const calls = turn?.draft.toolCalls.length ?? 0
  if (!turn || index < turn.toolResults || index >= calls || turn.outcomes?.[index]) return
  const outcomes = [...(turn.outcomes ?? [])]
  outcomes[index] = { result, concluded }
  // After an abort, outcomes are only kept: the unwind records the whole batch (R25).
  if (turn.abort) return tx.setActivity(withTurn(turn, { outcomes }))
  const next = recordReady(tx, withTurn(turn, { outcomes }))
  if (next.toolResults < calls) tx.setActivity(next)
  else finishStep(tx, next)
}

/** Records the buffered outcomes that are next in model order. */
const recordReady = (tx: Tx, turn: Turn): Turn => {
  let next = turn
  for (
    let outcome = next.outcomes?.[next.toolResults];
    outcome;
    outcome = next.outcomes?.[next.toolResults]
  ) {
    next = record(tx, next, outcome)
  }
  return next
}

const record = (tx: Tx, turn: Turn, outcome: ToolOutcome): Turn => {
  const call = turn.draft.toolCalls[turn.toolResults]
  if (call) {
    const at = { turn: turn.turn, step: turn.step }
    tx.durable({ type: 'tool/call', data: { ...at, call } })
    tx.durable({ type: 'tool/result', data: { ...at, result: outcome.result } })
  }
  return withTurn(turn, { toolResults: turn.toolResults + 1, concluded: turn.concluded || outcome.concluded })
}

/**
 * R25: an aborted batch. A value a tool delivered before the unwind is its result; a started
 * call without one is `ABORTED`; a call never dispatched is `ABORTED_BEFORE_DISPATCH`.
 */
export const abortBatch = (tx: Tx, turn: Turn): void => {
  let next = turn
  for (let i = turn.toolResults; i < turn.draft.toolCalls.length; i++) {
    const call = turn.draft.toolCalls[i]
    if (!call) break
    const outcome = turn.outcomes?.[i] ?? {
      result: aborted(call.id, turn.started?.[i] === true),
      concluded: false,
    }
    next = record(tx, next, outcome)
  }
}

const aborted = (toolCallId: string, started: boolean): ToolResultBlock => ({
  type: 'tool-result',
  toolCallId,
  content: [{ type: 'text', text: started ? 'Cancelled while running.' : 'Cancelled before it started.' }],
  isError: true,
  code: started ? 'ABORTED' : 'ABORTED_BEFORE_DISPATCH',
})

/**
 * R23: the batch runner failed (a defect outside any one tool). Every call still gets its
 * result, so the transcript never holds an unanswered call: an outcome already delivered is
 * kept, the others are `TOOL_ERROR`. Then the step closes (its last drain skipped, R20) and the
 * turn ends with the error.
 */
export const toolsFailed = (tx: Tx, activity: number, step: number, error: unknown): void => {
  const turn = batchTurn(tx, activity, step)
  if (!turn || turn.abort) return
  const text = errorText(error)
  let next = turn
  for (let i = turn.toolResults; i < turn.draft.toolCalls.length; i++) {
    const call = turn.draft.toolCalls[i]
    if (!call) break
    const result: ToolResultBlock = {
      type: 'tool-result',
      toolCallId: call.id,
      content: [{ type: 'text', text: `Not run: the tool runner failed: ${text}` }],
      isError: true,
      code: 'TOOL_ERROR',
    }
    next = record(tx, next, turn.outcomes?.[i] ?? { result, concluded: false })
  }
  tx.durable({ type: 'step/end', data: { turn: turn.turn, step } })
  tx.live({ type: 'agent/error', agentId: tx.state.agentId, turn: turn.turn, step, error })
  closeTurn(tx, withTurn(next, { stepOpen: false }), { kind: 'error', step, message: text }, error)
}
