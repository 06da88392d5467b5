import type { Agent } from '../contracts/agent.js'
import { ApprovalNotPendingError } from '../contracts/errors.js'
import type { BudgetLimits } from '../contracts/events.js'
import type { CallAt } from '../machine/callRef.js'
import { selectBudgetUsage, selectCall, selectHasBudget } from '../machine/selectors.js'
import { parseRaise } from '../messages/parseBudget.js'
import { ambiguousCallError, parseCancelToolCall, parseDecision } from '../messages/parseDecision.js'
import type { Driver } from '../runtime/driver.js'
import { refusalError } from './refusalError.js'

/**
 * A person's calls on a running turn, after the façade has refused them on a disposed agent:
 * each checks its input, asks the driver's `check` whether it may be made now, and goes through
 * the door. Bad input or a refusal throws and changes nothing.
 */

/**
 * The pending call `ref` names now (its key, or its model id when no other pending call has it),
 * or the error `approve`/`deny` throw: `InvalidInputError` for an ambiguous id (R62),
 * `ApprovalNotPendingError` for a call that is not pending or that an input waiting ahead (a
 * decision, a cancel, a `deny` send) settles first.
 */
export const pendingCall = (
  driver: Driver<Agent>,
  call: string,
  ref: string,
): { readonly at: CallAt; readonly callId: string } | Error => {
  const found = selectCall(driver.getSnapshot(), ref, 'pending')
  if (found.kind === 'ambiguous') return ambiguousCallError(call, ref, found.keys)
  if (found.kind === 'none') return new ApprovalNotPendingError(call, ref)
  const refusal = driver.check({ kind: 'decide', at: found.at, callId: ref })
  return refusal === undefined ? found : refusalError(call, refusal)
}

/** `approve` / `deny` (R62): only a pending call can be decided. */
export const decide = (
  driver: Driver<Agent>,
  call: string,
  ref: unknown,
  options: unknown,
  decision: 'approved' | 'denied',
): void => {
  const d = parseDecision(call, ref, options)
  const found = pendingCall(driver, call, d.callId)
  if (found instanceof Error) throw found
  const { reason, source } = d
  driver.send({ type: 'decide', ...found.at, callId: found.callId, decision, reason, source })
}

/**
 * `cancelToolCall` (R71): `false`, not a throw, for a call that is not running any more, or that
 * an input waiting ahead (a cancel, a decision) settles first; an ambiguous id throws.
 */
export const cancelCall = (driver: Driver<Agent>, ref: string, options: unknown): boolean => {
  const { reason } = parseCancelToolCall(ref, options)
  const found = selectCall(driver.getSnapshot(), ref, 'unsettled')
  if (found.kind === 'ambiguous') throw ambiguousCallError('cancelToolCall()', ref, found.keys)
  if (found.kind === 'none') return false
  if (driver.check({ kind: 'cancel-call', at: found.at, callId: ref }) !== undefined) return false
  driver.send({ type: 'cancel-call', ...found.at, reason })
  return true
}

/** `raiseBudget` (R80): each new limit above what is used already. */
export const raiseBudget = (driver: Driver<Agent>, limits: BudgetLimits): void => {
  const state = driver.getSnapshot()
  const checked = parseRaise(limits, selectBudgetUsage(state), selectHasBudget(state))
  driver.send({ type: 'raise-budget', limits: checked })
}
