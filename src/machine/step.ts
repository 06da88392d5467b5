import type { ContentBlock } from '../contracts/messages.js'
import type { ModelEvent } from '../contracts/model.js'
import { errorText } from '../messages/errorText.js'
import type { StepDraft, Turn } from './activity.js'
import { budgetStops, continueTurn } from './budget.js'
import { noteRequest } from './compaction.js'
import type { InputOf } from './inputs.js'
import { drainOutbox } from './outbox.js'
import { hasSteering } from './outboxEntry.js'
import { withContent, withDraft, withTurn, withTurnDraft } from './records.js'
import type { Reduction } from './reduction.js'
import { retryRequest } from './requestRetry.js'
import { mergeUsage, requestUsage } from './requestUsage.js'
import { errorResult, NOT_RUN_TEXT } from './results.js'
import { liveTurn } from './stepStart.js'
import { toolEnded } from './toolLive.js'
import { stepSeesTools, toolsEffect } from './tools.js'
import { closeTurn } from './turnEnd.js'

/** R15, R20a: after the `step` hook, drain the outbox, open the step, call the model. */
export const stepHookDone = (r: Reduction, { activity, step }: InputOf<'step-hook/done'>): void => {
  const turn = liveTurn(r, activity, 'step-hook', step)
  if (!turn) return
  drainOutbox(r, turn.turn)
  const tools = stepSeesTools(r)
  r.durable({ type: 'step/start', data: { turn: turn.turn, step } })
  r.setActivity(withTurn(turn, { phase: 'model', stepOpen: true }))
  r.effect(
    tools === 0
      ? { kind: 'model', activity, turn: turn.turn, step }
      : { kind: 'model', activity, turn: turn.turn, step, tools },
  )
}

/** Text and reasoning deltas merge into the step's last block of the same kind (one new array). */
const appendDelta = (content: readonly ContentBlock[], type: 'text' | 'reasoning', text: string) => {
  const last = content[content.length - 1]
  const next = content.slice()
  if (last?.type === type) next[next.length - 1] = { type, text: last.text + text }
  else next.push({ type, text })
  return next
}

const foldModelEvent = (draft: StepDraft, event: ModelEvent): StepDraft => {
  switch (event.type) {
    case 'text':
    case 'reasoning':
      return withContent(draft, appendDelta(draft.content, event.type, event.text))
    case 'tool-call': {
      const call = { type: 'tool-call' as const, id: event.id, name: event.name, arguments: event.arguments }
      return withDraft(draft, { content: [...draft.content, call], toolCalls: [...draft.toolCalls, call] })
    }
    case 'finish':
      return event.usage
        ? withDraft(draft, { finish: event.reason, usage: mergeUsage(draft.usage, event.usage) })
        : withDraft(draft, { finish: event.reason })
    case 'usage':
      return withDraft(draft, { usage: mergeUsage(draft.usage, event.usage) })
  }
}

/** R73: the request was made; the prompt's estimated size is kept in case no usage comes. */
export const modelStarted = (
  r: Reduction,
  { activity, step, inputTokens }: InputOf<'model/started'>,
): void => {
  const turn = liveTurn(r, activity, 'model', step)
  if (!turn) return
  r.setActivity(withTurnDraft(turn, withDraft(turn.draft, { inputEstimate: inputTokens })))
}

export const modelEvent = (r: Reduction, { activity, step, event }: InputOf<'model/event'>): void => {
  const turn = liveTurn(r, activity, 'model', step)
  if (!turn || turn.draft.finish) return // events after `finish` are ignored
  r.setActivity(withTurnDraft(turn, foldModelEvent(turn.draft, event)))
  if (event.type === 'text' || event.type === 'reasoning') {
    r.live({
      type: 'agent/stream/delta',
      agentId: r.state.agentId,
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
export const modelComplete = (r: Reduction, { activity, step }: InputOf<'model/complete'>): void => {
  const turn = liveTurn(r, activity, 'model', step)
  if (!turn) return
  const { content, toolCalls } = turn.draft
  const finish = turn.draft.finish ?? 'stop'
  const recorded = requestUsage(turn.draft)
  noteRequest(r, recorded)
  r.durable({ type: 'assistant/message', data: { turn: turn.turn, step, content, usage: recorded } })
  const maxTokens = turn.maxTokens || finish === 'max-tokens'
  const stop = budgetStops(r.state)
    ? 'budget'
    : lastStep(turn) && toolCalls.length > 0
      ? 'max-steps'
      : undefined
  if (finish === 'max-tokens' || stop) {
    for (const [index, call] of toolCalls.entries()) {
      const code = stop === 'budget' ? 'NOT_RUN_BUDGET' : stop ? 'NOT_RUN_MAX_STEPS' : 'NOT_RUN_MAX_TOKENS'
      const result = errorResult(call.id, code, NOT_RUN_TEXT[code])
      toolEnded(r, turn, index, result)
      r.durable({ type: 'tool/call', data: { turn: turn.turn, step, call } })
      r.durable({ type: 'tool/result', data: { turn: turn.turn, step, result } })
    }
    return finishStep(r, withTurn(turn, { maxTokens, phase: 'tools', stop }))
  }
  const inTools = withTurn(turn, { maxTokens, phase: 'tools' })
  if (toolCalls.length === 0) return finishStep(r, inTools)
  r.setActivity(inTools)
  r.effect(toolsEffect(r.state, { activity, turn: turn.turn, step, calls: toolCalls }))
}

/** R81: the turn's last allowed step asked for tools; none of them runs. */
const lastStep = (turn: Turn): boolean => turn.maxSteps !== undefined && turn.step >= turn.maxSteps

/** R15, R16, R20b: drain, close the step, then continue, conclude, or ask `turnStopping`. */
export const finishStep = (r: Reduction, turn: Turn): void => {
  const drained = drainOutbox(r, turn.turn)
  r.durable({ type: 'step/end', data: { turn: turn.turn, step: turn.step } })
  const ended = withTurn(turn, { stepOpen: false })
  if (turn.concluded || turn.stop) return closeTurn(r, ended, endReason(ended)) // R17, R80
  const ranTools = turn.toolResults > 0 && turn.draft.finish !== 'max-tokens'
  if (ranTools || drained || hasSteering(r.state.outbox)) return continueTurn(r, ended, turn.step + 1)
  r.setActivity(withTurn(ended, { phase: 'turn-stopping' }))
  r.effect({ kind: 'turn-stopping', activity: turn.id, turn: turn.turn, step: turn.step })
}

const endReason = (turn: Turn) =>
  turn.stop
    ? { kind: turn.stop }
    : turn.maxTokens
      ? { kind: 'max-tokens' as const }
      : { kind: 'completed' as const }

/** R16, R20c: after `turnStopping`, one more drain; steering in it runs another step. */
export const turnStoppingDone = (r: Reduction, { activity }: InputOf<'turn-stopping/done'>): void => {
  const turn = liveTurn(r, activity, 'turn-stopping')
  if (!turn) return
  if (drainOutbox(r, turn.turn)) return continueTurn(r, turn, turn.step + 1)
  closeTurn(r, turn, endReason(turn))
}

/** R23: a throwing `step` or `turnStopping` hook ends the turn with an error. */
export const hookFailed = (r: Reduction, { activity, step, error }: InputOf<'hook/failed'>): void => {
  const turn = liveTurn(r, activity, undefined, step)
  if (!turn || (turn.phase !== 'step-hook' && turn.phase !== 'turn-stopping')) return
  r.live({ type: 'agent/error', agentId: r.state.agentId, turn: turn.turn, step, error })
  closeTurn(r, turn, { kind: 'error', step, message: errorText(error) }, error)
}

/**
 * R24: close the failed step (remaining drains are skipped), then run `requestError`; unless the
 * request is retried first (R117). The hook
 * starts from a posted continuation, after the subscribers of `step/end`: a `retry()` of theirs is
 * outside `requestError` and throws, as at any other busy moment.
 */
export const modelFailed = (r: Reduction, failed: InputOf<'model/failed'>): void => {
  const { activity, step, error } = failed
  const turn = liveTurn(r, activity, 'model', step)
  if (!turn) return
  if (retryRequest(r, turn, failed)) return // R117: made again later; the step stays open
  const recorded = requestUsage(turn.draft)
  noteRequest(r, recorded)
  r.durable({ type: 'step/end', data: { turn: turn.turn, step, usage: recorded } })
  r.setActivity(withTurn(turn, { phase: 'request-failed', stepOpen: false, requestError: error }))
  r.effect({ kind: 'post', input: { type: 'request-error/start', activity } })
}

export const requestErrorStart = (r: Reduction, { activity }: InputOf<'request-error/start'>): void => {
  const turn = liveTurn(r, activity, 'request-failed')
  if (!turn) return
  r.setActivity(withTurn(turn, { phase: 'request-error' }))
  const error = turn.requestError
  r.effect({ kind: 'request-error', activity, turn: turn.turn, step: turn.step, error })
}

export const requestErrorDone = (r: Reduction, { activity }: InputOf<'request-error/done'>): void => {
  const turn = liveTurn(r, activity, 'request-error')
  if (!turn) return
  const error = turn.requestError
  r.live({ type: 'agent/error', agentId: r.state.agentId, turn: turn.turn, step: turn.step, error })
  closeTurn(r, turn, { kind: 'error', step: turn.step, message: errorText(error) }, error)
}
