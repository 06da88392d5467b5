import type { ApprovalRequestData } from './events.js'
import type { MessageSource } from './messages.js'

/** A tool call waiting for a decision: its request, and the `seq` of its `approval/request`. */
export type PendingApproval = ApprovalRequestData & { readonly requestedSeq: number }

export type DecisionOptions = {
  /** Shown to the model with a denial; kept in the `approval/decision`. */
  readonly reason?: string
  /** Who decided; default `{kind: 'user'}`. */
  readonly source?: MessageSource
}
