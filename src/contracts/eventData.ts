/**
 * The data that durable and live events share (an approval's request and decision, a budget
 * pause, a turn's trigger) and the session's usage: the event types themselves are in
 * `events.ts`, which publishes these names beside them.
 */
import type { AgentMessageId, MessageSource } from './messages.js'

export type SettledReason =
  | { readonly kind: 'completed' }
  | { readonly kind: 'aborted' }
  | { readonly kind: 'error'; readonly error: unknown }

export type TurnTrigger =
  /** `id`: the prompt's id (logs written before it existed lack it). */
  | { readonly kind: 'message'; readonly source: MessageSource; readonly id?: AgentMessageId }
  | { readonly kind: 'retry' }

/** A tool call that waits for approval (R61). */
export type ApprovalRequestData = {
  readonly turn: number
  readonly step: number
  /** The model's id for the call, as it wrote it: it may repeat in a step, or be empty. */
  readonly callId: string
  /**
   * The call's position in its step (model order, from 0): what names the call, since the model
   * chooses ids. Absent in logs written before it existed (the call is then found by its id).
   */
  readonly index?: number
  readonly name: string
  /** The call's arguments, as the model wrote them (JSON text). */
  readonly arguments: string
}

/** A person's (or a send's, or a timeout's) decision on one call (R62, R63, R66). */
export type ApprovalDecisionData = {
  readonly turn: number
  readonly step: number
  readonly callId: string
  /** The decided call's position in its step, as in its `approval/request` (absent in older logs). */
  readonly index?: number
  readonly decision: 'approved' | 'denied'
  readonly reason?: string
  readonly source: MessageSource
  /** The send whose `onApproval: 'deny'` made this decision (R63). */
  readonly byMessage?: AgentMessageId
  /** `cancelToolCall(callId)` settled the waiting call (R71): its result is `CANCELLED`. */
  readonly cancelled?: true
}

/**
 * `agent.usage` (R73): the tokens of every model request of the session, folded from its log.
 * `requests` counts every request (each step is one); `estimatedRequests` those whose provider
 * sent no usage, so their tokens were estimated (or, for a request a crash cut off, not known).
 */
export type SessionUsage = {
  readonly inputTokens: number
  readonly outputTokens: number
  readonly cachedInputTokens: number
  readonly requests: number
  readonly estimatedRequests: number
}

/** Token usage counted against a budget: what the model reported, summed over the session. */
export type BudgetUsage = { readonly totalTokens: number; readonly requests: number }
export type BudgetLimits = { readonly maxTotalTokens?: number; readonly maxRequests?: number }
export type BudgetPauseData = {
  readonly turn: number
  readonly step: number
  readonly usage: BudgetUsage
  readonly limits: BudgetLimits
}
