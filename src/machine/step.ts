import type { ContentBlock, ToolResultBlock } from '../contracts/messages.js'
import type { ModelEvent } from '../contracts/model.js'
import { errorText } from '../messages/errorText.js'
import { closeTurn } from './betweenTurns.js'
import { drainOutbox } from './outbox.js'
import { withDraft, withTurn } from './records.js'
import type { Tx } from './reduction.js'
import { EMPTY_DRAFT, hasSteering, type StepDraft, type Turn } from './state.js'

/** The current turn, if `activity` names it, no cancel hit it, and it is in `phase`. */
export const liveTurn = (
  tx: Tx,
  activity: number,
  phase?: Turn['phase'],
  step?: number,
): Turn | undefined => {
  const a = tx.state.activity
  if (a?.kind !== 'turn' || a.id !== activity || a.abort) return undefined
  if (phase !== undefined && a.phase !== phase) return undefined
  return step === undefined || a.step === step ? a : undefined
}

/** R15: every step starts with the `step` hook. */
export const beginStep = (tx: Tx, base: Pick<Turn, 'id' | 'turn'> & Partial<Turn>, step: number): void => {
  // Listed, not spread (see copy.ts): a new step keeps the turn's maxTokens, requestError, abort.
  const turn: Turn = withTurn(base as Turn, {
    kind: 'turn',
    step,
    phase: 'step-hook',
    stepOpen: false,
    draft: EMPTY_DRAFT,
    toolResults: 0,
    concluded: false,
    started: [],
    outcomes: [],
    maxTokens: base.maxTokens ?? false,
  })
  tx.setActivity(turn)
  tx.effect({ kind: 'step-hook', activity: turn.id, turn: turn.turn, step })
}

/** R15, R20a: after the `step` hook, drain the outbox, open the step, call the model. */
export const stepHookDone = (tx: Tx, activity: number, step: number): void => {
  const turn = liveTurn(tx, activity, 'step-hook', step)
  if (!turn) return
  drainOutbox(tx, turn.turn)
  tx.durable({ type: 'step/start', data: { turn: turn.turn, step } })
  tx.setActivity(withTurn(turn, { phase: 'model', stepOpen: true }))
  tx.effect({ kind: 'model', activity, turn: turn.turn, step })
}

/** Text and reasoning deltas merge into the step's last block of the same kind. */
const appendDelta = (content: readonly ContentBlock[], type: 'text' | 'reasoning', text: string) => {
  const last = content[content.length - 1]
  if (last?.type === type) return [...content.slice(0, -1), { type, text: last.text + text }]
  return [...content, { type, text }]
}

const foldModelEvent = (draft: StepDraft, event: ModelEvent): StepDraft => {
  switch (event.type) {
    case 'text':
    case 'reasoning':
      return withDraft(draft, { content: appendDelta(draft.content, event.type, event.text) })
    case 'tool-call': {
      const call = { type: 'tool-call' as const, id: event.id, name: event.name, arguments: event.arguments }
      return withDraft(draft, { content: [...draft.content, call], toolCalls: [...draft.toolCalls, call] })
    }
    case 'finish':
      return withDraft(draft, { finish: event.reason, ...(event.usage ? { usage: event.usage } : {}) })
  }
}

export const modelEvent = (tx: Tx, activity: number, step: number, event: ModelEvent): void => {
  const turn = liveTurn(tx, activity, 'model', step)
  if (!turn || turn.draft.finish) return // events after `finish` are ignored
  tx.setActivity(withTurn(turn, { draft: foldModelEvent(turn.draft, event) }))
  if (event.type === 'text' || event.type === 'reasoning') {
    tx.live({
      type: 'agent/stream/delta',
      agentId: tx.state.agentId,
      turn: turn.turn,
      step,
      kind: event.type,
      text: event.text,
    })
  }
}

/**
 * A successful finish (a stream that completes without `finish` finished with `stop`): one
 * `assistant/message`, then the tool calls. Calls of a `max-tokens` finish are not run (R18).
 */
export const modelComplete = (tx: Tx, activity: number, step: number): void => {
  const turn = liveTurn(tx, activity, 'model', step)
  if (!turn) return
  const { content, usage, toolCalls } = turn.draft
  const finish = turn.draft.finish ?? 'stop'
  // Two literals, not a conditional spread: spreads into a literal take V8's slow path (issue #7).
  const data = usage ? { turn: turn.turn, step, content, usage } : { turn: turn.turn, step, content }
  tx.durable({ type: 'assistant/message', data })
  const maxTokens = turn.maxTokens || finish === 'max-tokens'
  if (finish === 'max-tokens') {
    for (const call of toolCalls) {
      tx.durable({ type: 'tool/call', data: { turn: turn.turn, step, call } })
      const result = notRun(call.id)
      tx.durable({ type: 'tool/result', data: { turn: turn.turn, step, result } })
    }
    return finishStep(tx, withTurn(turn, { maxTokens, phase: 'tools' }))
  }
  const inTools = withTurn(turn, { maxTokens, phase: 'tools' })
  if (toolCalls.length === 0) return finishStep(tx, inTools)
  tx.setActivity(inTools)
  tx.effect({ kind: 'tools', activity, turn: turn.turn, step, calls: toolCalls })
}

const notRun = (toolCallId: string): ToolResultBlock => ({
  type: 'tool-result',
  toolCallId,
  content: [{ type: 'text', text: 'Not run: the answer was cut off at the token limit.' }],
  isError: true,
  code: 'NOT_RUN_MAX_TOKENS',
})

/** R15, R16, R20b: drain, close the step, then continue, conclude, or ask `turnStopping`. */
export const finishStep = (tx: Tx, turn: Turn): void => {
  const drained = drainOutbox(tx, turn.turn)
  tx.durable({ type: 'step/end', data: { turn: turn.turn, step: turn.step } })
  const ended = withTurn(turn, { stepOpen: false })
  if (turn.concluded) return closeTurn(tx, ended, endReason(ended)) // R17
  const ranTools = turn.toolResults > 0 && turn.draft.finish !== 'max-tokens'
  if (ranTools || drained || hasSteering(tx.state.outbox)) return beginStep(tx, ended, turn.step + 1)
  tx.setActivity(withTurn(ended, { phase: 'turn-stopping' }))
  tx.effect({ kind: 'turn-stopping', activity: turn.id, turn: turn.turn, step: turn.step })
}

const endReason = (turn: Turn) =>
  turn.maxTokens ? { kind: 'max-tokens' as const } : { kind: 'completed' as const }

/** R16, R20c: after `turnStopping`, one more drain; steering in it runs another step. */
export const turnStoppingDone = (tx: Tx, activity: number): void => {
  const turn = liveTurn(tx, activity, 'turn-stopping')
  if (!turn) return
  if (drainOutbox(tx, turn.turn)) return beginStep(tx, turn, turn.step + 1)
  closeTurn(tx, turn, endReason(turn))
}

/** R23: a throwing `step` or `turnStopping` hook ends the turn with an error. */
export const hookFailed = (tx: Tx, activity: number, step: number, error: unknown): void => {
  const turn = liveTurn(tx, activity, undefined, step)
  if (!turn || (turn.phase !== 'step-hook' && turn.phase !== 'turn-stopping')) return
  tx.live({ type: 'agent/error', agentId: tx.state.agentId, turn: turn.turn, step, error })
  closeTurn(tx, turn, { kind: 'error', step, message: errorText(error) }, error)
}

/**
 * R24: close the failed step (remaining drains are skipped), then run `requestError`. The hook
 * starts from a posted continuation, after the subscribers of `step/end`: a `retry()` of theirs is
 * outside `requestError` and throws, as at any other busy moment.
 */
export const modelFailed = (tx: Tx, activity: number, step: number, error: unknown): void => {
  const turn = liveTurn(tx, activity, 'model', step)
  if (!turn) return
  tx.durable({ type: 'step/end', data: { turn: turn.turn, step } })
  tx.setActivity(withTurn(turn, { phase: 'request-failed', stepOpen: false, requestError: error }))
  tx.effect({ kind: 'post', input: { type: 'request-error/start', activity } })
}

export const requestErrorStart = (tx: Tx, activity: number): void => {
  const turn = liveTurn(tx, activity, 'request-failed')
  if (!turn) return
  tx.setActivity(withTurn(turn, { phase: 'request-error' }))
  const error = turn.requestError
  tx.effect({ kind: 'request-error', activity, turn: turn.turn, step: turn.step, error })
}

export const requestErrorDone = (tx: Tx, activity: number): void => {
  const turn = liveTurn(tx, activity, 'request-error')
  if (!turn) return
  const error = turn.requestError
  tx.live({ type: 'agent/error', agentId: tx.state.agentId, turn: turn.turn, step: turn.step, error })
  closeTurn(tx, turn, { kind: 'error', step: turn.step, message: errorText(error) }, error)
}
