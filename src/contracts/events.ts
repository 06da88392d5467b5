/**
 * The two event vocabularies of docs/contract.md, section 4: live lifecycle events (`events$`, not
 * persisted) and durable session events (`transcript$`, the transcript). Type strings are
 * namespaced. Each event is defined once, as a schema in `src/vocabulary/`; these are the types
 * of those schemas (type-only imports: `contracts/` loads no code).
 */
import type { AgentEvent, AgentEventOf, AgentEventType } from '../vocabulary/agentEvents.js'
import type { Defined } from '../vocabulary/frozen.js'
import type { compactionResult, settledReason } from '../vocabulary/liveTurnEvents.js'
import type { BudgetLimits, BudgetUsage } from '../vocabulary/pauseEvents.js'
import type { SessionEvent, SessionEventDataMap, SessionEventType } from '../vocabulary/sessionEvents.js'
import type { turnTrigger } from '../vocabulary/turnEvents.js'
import type { TurnEndReason } from './turnEndReason.js'

export type {
  AgentEvent,
  AgentEventOf,
  AgentEventType,
  BudgetLimits,
  BudgetUsage,
  SessionEvent,
  SessionEventDataMap,
  SessionEventType,
}

export type SettledReason = Defined<typeof settledReason>

export type InboxEnqueueEvent = AgentEventOf<'agent/inbox/enqueue'>
export type InboxDequeueEvent = AgentEventOf<'agent/inbox/dequeue'>
export type InboxDiscardEvent = AgentEventOf<'agent/inbox/discard'>
/** `replace(id, input)` changed a waiting queued or steering item: same id, new content (R44). */
export type InboxReplaceEvent = AgentEventOf<'agent/inbox/replace'>
/** `move()` or `promote()` reordered the queue: its ids in their new order (R45, R46). */
export type InboxReorderEvent = AgentEventOf<'agent/inbox/reorder'>
export type StatusEvent = AgentEventOf<'agent/status'>
export type CancelRequestedEvent = AgentEventOf<'agent/cancel-requested'>
export type SettledEvent = AgentEventOf<'agent/settled'>
export type AgentErrorEvent = AgentEventOf<'agent/error'>
/** A streamed text or reasoning delta of the running step: live only (`assistant/message` is durable). */
export type StreamDeltaEvent = AgentEventOf<'agent/stream/delta'>
/** A call waits for a person's decision (R61): the same data as its durable `approval/request`. */
export type ApprovalRequestedEvent = AgentEventOf<'agent/approval/requested'>
/** A budget limit was passed and the turn paused at its step boundary (R80). */
export type BudgetExceededEvent = AgentEventOf<'agent/budget/exceeded'>
/** A tool call was dispatched: its `execute` is called now (R72). */
export type ToolStartEvent = AgentEventOf<'agent/tool/start'>
/** A tool call's result is known (R72), before its durable `tool/call`/`tool/result` pair. */
export type ToolEndEvent = AgentEventOf<'agent/tool/end'>
/** What a compaction came to (R74, R75): `compacted`, `skipped`, `aborted` or `error`. */
export type CompactionResult = Defined<typeof compactionResult>
/** A compaction began at a turn boundary (R74); `turn` is the last turn that ended. */
export type CompactionStartEvent = AgentEventOf<'agent/compaction/start'>
/** A compaction ended; its `compaction` event, when it wrote one, is already appended (R74). */
export type CompactionEndEvent = AgentEventOf<'agent/compaction/end'>

/** A request failed with a retryable error and is made again after `delayMs` (R117). */
export type RequestRetryEvent = AgentEventOf<'agent/request/retry'>

/** What opened a turn. `id`: the prompt's id (logs written before it existed lack it). */
export type TurnTrigger = Defined<typeof turnTrigger>
export type { TurnEndReason }

/** A tool call that waits for approval (R61). */
export type ApprovalRequestData = SessionEventDataMap['approval/request']
/** A person's (or a send's, or a timeout's) decision on one call (R62, R63, R66). */
export type ApprovalDecisionData = SessionEventDataMap['approval/decision']
export type BudgetPauseData = SessionEventDataMap['budget/pause']

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

/** A durable event before the session numbers it: what reducers produce. */
export type DurableDraft = {
  [T in SessionEventType]: { readonly type: T; readonly data: SessionEventDataMap[T] }
}[SessionEventType]

export type SessionEventOf<T extends SessionEventType> = Extract<SessionEvent, { type: T }>
