import type { StepText } from '../contracts/agent.js'
import type { BudgetUsage, SessionUsage } from '../contracts/events.js'
import type { AgentMessageId, AgentStatus, ToolCallBlock } from '../contracts/messages.js'
import { isHumanPrompt } from '../messages/isHumanPrompt.js'
import { resolveCall } from './callRef.js'
import { fifoToArray } from './fifo.js'
import { itemSource, itemWakes } from './queuedItem.js'
import { type DeliveryState, isQuiescent } from './state.js'
import { budgetUsage } from './usageFold.js'
import { holds } from './waiting.js'

/**
 * What the outside reads of a delivery state: the agent's getters, `whenIdle()`, the outcomes
 * and the companions (goals, PostgreSQL owners) all read the state through these, never its
 * fields, so the state's shape can change without touching them.
 */

/** `agent.status`. */
export const selectStatus = (s: DeliveryState): AgentStatus => s.status

/** `agent.acceptsNextStep`: the acceptance window (R4). */
export const selectAcceptsNextStep = (s: DeliveryState): boolean => s.window

/** Whether `retry()` may be called now (the façade throws `AgentBusyError` otherwise, R24). */
export const canRetry = (s: DeliveryState): boolean => {
  if (s.activity === null) return true
  return s.activity.kind === 'turn' && s.activity.phase === 'request-error'
}

/** Nothing runs, nothing is scheduled and no waking item waits (R28; parked ones do not count). */
export const selectQuiescent = isQuiescent

/** Whether `id` waits in the inbox or is the prompt being claimed or admitted (R42). */
export const selectHolds = (s: DeliveryState, id: AgentMessageId): boolean => holds(s, id)

/** How many human prompts (R39) wait in the queue and may wake the driver (not parked). */
export const selectWakingHumanPrompts = (s: DeliveryState): number => {
  if (s.waking === 0) return 0
  let n = 0
  for (const item of fifoToArray(s.queue)) if (itemWakes(item) && isHumanPrompt(itemSource(item))) n++
  return n
}

/** The calls of the running step that wait for a decision (R61), in model order. */
export const selectPendingCalls = (
  s: DeliveryState,
): readonly {
  readonly turn: number
  readonly step: number
  readonly index: number
  readonly call: ToolCallBlock
}[] => {
  const a = s.activity
  if (a?.kind !== 'turn' || a.abort || !a.approvals?.includes('pending')) return []
  return a.draft.toolCalls.flatMap((call, index) =>
    a.approvals?.[index] === 'pending' ? [{ turn: a.turn, step: a.step, index, call }] : [],
  )
}

/**
 * What `approve(ref)` / `deny(ref)` (scope `'pending'`, R62) or `cancelToolCall(ref)` (scope
 * `'unsettled'`, R71) would act on now: a key names its call, a model id the one call that has it.
 */
export const selectCall = resolveCall

/** `agent.usage` (R73): the same frozen object until a request's usage is written. */
export const selectUsage = (s: DeliveryState): SessionUsage => s.usage

/** What the budget counts (R80): the tokens of `agent.usage`, reported and estimated, and its requests. */
export const selectBudgetUsage = (s: DeliveryState): BudgetUsage => budgetUsage(s.usage)

export const selectHasBudget = (s: DeliveryState): boolean => s.budget !== undefined

/**
 * The text the running step has streamed so far (`text$`, R82), when a step streams and some text
 * came: one text block's own string while there is one (a long answer is not copied per delta).
 */
export const selectStepText = (s: DeliveryState): StepText | undefined => {
  const a = s.activity
  if (a?.kind !== 'turn' || a.phase !== 'model' || !a.stepOpen) return undefined
  let text: string | undefined
  for (const block of a.draft.content)
    if (block.type === 'text') text = text === undefined ? block.text : text + block.text
  return text === undefined || text === '' ? undefined : { turn: a.turn, step: a.step, text }
}

/** No admission, turn or compaction runs and the status is idle: `rollback()` may run (R77). */
export const selectIsIdle = (s: DeliveryState): boolean => s.activity === null && s.status === 'idle'
