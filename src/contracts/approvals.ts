import type { ApprovalRequestData } from './events.js'
import type { MessageSource } from './messages.js'

/**
 * A tool call waiting for a decision: its request, and the `seq` of its `approval/request`.
 * `key` (`"turn.step.index"`, e.g. `"3.1.0"`) names it for `approve`, `deny` and `cancelToolCall`
 * whatever ids the model chose: two calls of a step may share a `callId`, or have an empty one.
 */
export type PendingApproval = ApprovalRequestData & {
  readonly index: number
  readonly key: string
  readonly requestedSeq: number
}

export type DecisionOptions = {
  /** Shown to the model with a denial; kept in the `approval/decision`. */
  readonly reason?: string
  /** Who decided; default `{kind: 'user'}`. */
  readonly source?: MessageSource
}
