import type { AgentMessageId, AgentStatus } from '../contracts/messages.js'
import { isHumanPrompt } from '../messages/isHumanPrompt.js'
import { fifoToArray } from './fifo.js'
import { type DeliveryState, isQuiescent, itemSource, itemWakes } from './state.js'
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
