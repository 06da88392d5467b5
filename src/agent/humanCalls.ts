import type { Agent } from '../contracts/agent.js'
import type { BudgetLimits } from '../contracts/events.js'
import { selectBudgetUsage, selectHasBudget } from '../machine/selectors.js'
import { parseRaise } from '../messages/parseBudget.js'
import { parseCancelToolCall, parseDecision } from '../messages/parseDecision.js'
import type { Driver } from '../runtime/driver.js'
import { throwRefusal } from './refusalError.js'

/**
 * A person's calls on a running turn, after the façade has refused them on a disposed agent:
 * each checks its input, asks the driver's `check` whether it may be made now, and goes through
 * the door. Bad input or a refusal throws and changes nothing.
 */

/** `approve` / `deny` (R62): only a pending call can be decided. */
export const decide = (
  driver: Driver<Agent>,
  call: string,
  callId: unknown,
  options: unknown,
  decision: 'approved' | 'denied',
): void => {
  const d = parseDecision(call, callId, options)
  throwRefusal(call, driver.check({ kind: 'decide', callId: d.callId }))
  driver.send({ type: 'decide', callId: d.callId, decision, reason: d.reason, source: d.source })
}

/** `cancelToolCall` (R71): `false`, not a throw, for a call that is not running any more. */
export const cancelCall = (driver: Driver<Agent>, callId: string, options: unknown): boolean => {
  const { reason } = parseCancelToolCall(callId, options)
  // A cancel or a decision still in the trampoline settles the call first: this one is late.
  if (driver.check({ kind: 'cancel-call', callId }) !== undefined) return false
  driver.send({ type: 'cancel-call', callId, reason })
  return true
}

/** `raiseBudget` (R80): each new limit above what is used already. */
export const raiseBudget = (driver: Driver<Agent>, limits: BudgetLimits): void => {
  const state = driver.getSnapshot()
  const checked = parseRaise(limits, selectBudgetUsage(state), selectHasBudget(state))
  driver.send({ type: 'raise-budget', limits: checked })
}
