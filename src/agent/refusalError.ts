import {
  AgentBusyError,
  ApprovalNotPendingError,
  InboxFullError,
  TurnMismatchError,
} from '../contracts/errors.js'
import type { Refusal } from '../machine/check.js'

const BUSY_FIX =
  "ifBusy: 'reject' refuses it; send without ifBusy to queue it, or with ifBusy: 'interrupt' to run it next"

/** The error the contract names for a refusal of `machine/check.ts`, for the call `call`. */
export const refusalError = (call: string, refusal: Refusal): Error => {
  switch (refusal.kind) {
    case 'turn-mismatch':
      return new TurnMismatchError(call, refusal.expected, refusal.current)
    case 'busy':
      return new AgentBusyError(call, BUSY_FIX)
    case 'inbox-full':
      return new InboxFullError(call, refusal.limit)
    case 'not-pending':
      return new ApprovalNotPendingError(call, refusal.callId)
    case 'not-running':
      return new ToolCallNotRunning(call, refusal.callId)
  }
}

/** Throws the error of `refusal` for the call `call`, when there is one. */
export const throwRefusal = (call: string, refusal: Refusal | undefined): void => {
  if (refusal !== undefined) throw refusalError(call, refusal)
}

/** Internal: a cancel of a call that is not running is `false`, never thrown (R71). */
class ToolCallNotRunning extends Error {
  override readonly name = 'ToolCallNotRunning'
  constructor(call: string, callId: string) {
    super(`${call}: no running tool call ${callId} (it settled, or the id is wrong)`)
  }
}
