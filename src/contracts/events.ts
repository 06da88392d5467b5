/**
 * The two event vocabularies of docs/contract.md, section 4: live lifecycle events (`events$`, not persisted)
 * and durable session events (`transcript$`, the transcript). Type strings are namespaced. The
 * rules of each event are its schema in `src/vocabulary/`; these types are written by hand so the
 * published declarations name no zod internals, and test/types/vocabulary.test.ts fails when one
 * disagrees with its schema.
 */
import type {
  ApprovalDecisionData,
  ApprovalRequestData,
  BudgetPauseData,
  SettledReason,
  TurnTrigger,
} from './eventData.js'
import type { DiscardReason } from './inbox.js'
import type {
  AgentCancelCause,
  AgentMessage,
  AgentMessageId,
  AgentStatus,
  ContentBlock,
  InboxPlacement,
  MessageSource,
  ToolCallBlock,
  ToolResultBlock,
  ToolResultCode,
  Usage,
} from './messages.js'
import type { TurnEndReason } from './turnEndReason.js'

type Live<T extends string, P> = { readonly type: T; readonly agentId: string } & P

export type InboxEnqueueEvent = Live<
  'agent/inbox/enqueue',
  {
    readonly message: AgentMessage
    readonly placement: InboxPlacement
    /**
     * Where in the queue the item went when not at its tail: 0 for an interrupting send (R47), 1
     * for the prompt it interrupted, which goes back behind it.
     */
    readonly index?: number
  }
>
export type InboxDequeueEvent = Live<'agent/inbox/dequeue', { readonly message: AgentMessage }>
export type InboxDiscardEvent = Live<
  'agent/inbox/discard',
  { readonly messages: readonly AgentMessage[]; readonly reason: DiscardReason }
>
/** `replace(id, input)` changed a waiting queued or steering item: same id, new content (R44). */
export type InboxReplaceEvent = Live<'agent/inbox/replace', { readonly message: AgentMessage }>
/** `move()` or `promote()` reordered the queue: its ids in their new order (R45, R46). */
export type InboxReorderEvent = Live<'agent/inbox/reorder', { readonly ids: readonly AgentMessageId[] }>
export type StatusEvent = Live<'agent/status', { readonly status: AgentStatus }>
export type CancelRequestedEvent = Live<'agent/cancel-requested', { readonly cause: AgentCancelCause }>
export type SettledEvent = Live<'agent/settled', { readonly turn: number; readonly reason: SettledReason }>
export type AgentErrorEvent = Live<
  'agent/error',
  { readonly turn: number; readonly step: number; readonly error: unknown }
>
/**
 * A streamed text or reasoning delta of the running step. Not in the contract's table: added so that
 * apps can show text as it arrives. Deltas are live only; the durable record is the step's
 * `assistant/message`.
 */
export type StreamDeltaEvent = Live<
  'agent/stream/delta',
  { readonly turn: number; readonly step: number; readonly kind: 'text' | 'reasoning'; readonly text: string }
>

/** A call waits for a person's decision (R61): the same data as its durable `approval/request`. */
export type ApprovalRequestedEvent = Live<'agent/approval/requested', ApprovalRequestData>
/** A budget limit was passed and the turn paused at its step boundary (R80). */
export type BudgetExceededEvent = Live<'agent/budget/exceeded', BudgetPauseData>

/** A tool call was dispatched: its `execute` is called now (R72). */
export type ToolStartEvent = Live<
  'agent/tool/start',
  {
    readonly turn: number
    readonly step: number
    readonly callId: string
    /** The call's position in its step (model order, from 0): it names the call when ids repeat. */
    readonly index: number
    readonly name: string
  }
>
/**
 * A tool call's result is known (R72), before its durable `tool/call`/`tool/result` pair: every
 * call of a step gets one, whether it ran, was denied, cancelled or never dispatched.
 */
export type ToolEndEvent = Live<
  'agent/tool/end',
  {
    readonly turn: number
    readonly step: number
    readonly callId: string
    /** The call's position in its step (model order, from 0). */
    readonly index: number
    readonly isError: boolean
    readonly code?: ToolResultCode
  }
>

/**
 * What a compaction came to (R74, R75): `compacted` with what the durable `compaction` event
 * holds; `skipped` when the messages before the kept tail were empty (nothing is appended);
 * `aborted` by `cancel()` or `dispose()`; `error` when the summariser failed.
 */
export type CompactionResult =
  | ({ readonly kind: 'compacted' } & SessionEventDataMap['compaction'])
  /** Nothing to compact; or `reason: 'budget'`: the budget is spent and the summariser is the model (R80). */
  | { readonly kind: 'skipped'; readonly reason?: 'budget' }
  | { readonly kind: 'aborted' }
  | { readonly kind: 'error'; readonly error: unknown }

/** A compaction began at a turn boundary (R74); `turn` is the last turn that ended. */
export type CompactionStartEvent = Live<'agent/compaction/start', { readonly turn: number }>
/** A compaction ended; its `compaction` event, when it wrote one, is already appended (R74). */
export type CompactionEndEvent = Live<
  'agent/compaction/end',
  { readonly turn: number; readonly result: CompactionResult }
>

/**
 * A request failed with a retryable error before its first streamed event and is made again
 * after `delayMs` on the agent's scheduler (R117): `attempt` counts the retries of this step's
 * request, from 1; `error` is what the failed request threw.
 */
export type RequestRetryEvent = Live<
  'agent/request/retry',
  {
    readonly turn: number
    readonly step: number
    readonly attempt: number
    readonly delayMs: number
    readonly error: unknown
  }
>

export type AgentEvent =
  | InboxEnqueueEvent
  | InboxDequeueEvent
  | InboxDiscardEvent
  | InboxReplaceEvent
  | InboxReorderEvent
  | StatusEvent
  | CancelRequestedEvent
  | SettledEvent
  | AgentErrorEvent
  | StreamDeltaEvent
  | ApprovalRequestedEvent
  | BudgetExceededEvent
  | ToolStartEvent
  | ToolEndEvent
  | CompactionStartEvent
  | CompactionEndEvent
  | RequestRetryEvent

export type AgentEventType = AgentEvent['type']

// The data events share is published with them: one vocabulary to an importer.
export type * from './eventData.js'
export type { TurnEndReason }

/** Durable event payloads by type. */
export type SessionEventDataMap = {
  'user/message': {
    readonly content: readonly ContentBlock[]
    readonly source: MessageSource
    readonly id?: AgentMessage['id']
  }
  'steering/message': {
    readonly turn: number
    readonly content: readonly ContentBlock[]
    readonly source: MessageSource
    readonly id: AgentMessage['id']
    /** This steer cut the step it was drained into (R68): `steer(x, {interrupt: true})`. */
    readonly interrupt?: true
  }
  'turn/start': { readonly turn: number; readonly trigger: TurnTrigger }
  'turn/end': { readonly turn: number; readonly reason: TurnEndReason }
  'step/start': { readonly turn: number; readonly step: number }
  /**
   * `interrupted`: an interrupting steer cut the step's model request (R68). `usage`: the usage of
   * a request that wrote no `assistant/message` (cut before any text, cancelled, failed; R73).
   */
  'step/end': {
    readonly turn: number
    readonly step: number
    readonly interrupted?: true
    readonly usage?: Usage
  }
  /** `interrupted`: the text and reasoning streamed before a steer cut the request (R68). */
  'assistant/message': {
    readonly turn: number
    readonly step: number
    readonly content: readonly ContentBlock[]
    readonly usage?: Usage
    readonly interrupted?: true
  }
  'tool/call': { readonly turn: number; readonly step: number; readonly call: ToolCallBlock }
  'tool/result': { readonly turn: number; readonly step: number; readonly result: ToolResultBlock }
  'approval/request': ApprovalRequestData
  'approval/decision': ApprovalDecisionData
  'budget/pause': BudgetPauseData
  /**
   * R74: the messages before `keptFromSeq` (up to `upToSeq`, the log's end when it began) were
   * summarised: `session.messages()` is `summary` (a user message from `{kind: 'system'}`), then
   * the messages from `keptFromSeq` on. The events themselves stay in the log.
   */
  compaction: {
    readonly upToSeq: number
    readonly keptFromSeq: number
    readonly summary: readonly ContentBlock[]
    readonly usage?: Usage
  }
  /** R77: `session.messages()` is what it was when turn `toTurn` ended (0: before any turn). */
  rollback: { readonly toTurn: number }
  /** R78: this session was forked from session `from` at the end of turn `atTurn`. */
  fork: { readonly from: string; readonly atTurn: number }
  /** R100: the tools the step after this event sees differ from the previous step's (names). */
  'tools/changed': { readonly added: readonly string[]; readonly removed: readonly string[] }
}

export type SessionEventType = keyof SessionEventDataMap

/** A durable event before the session numbers it: what reducers produce. */
export type DurableDraft = {
  [T in SessionEventType]: { readonly type: T; readonly data: SessionEventDataMap[T] }
}[SessionEventType]

/** A durable event as stored: `seq` = 1, 2, 3 … per session. Deep-frozen. */
export type SessionEvent = {
  [T in SessionEventType]: { readonly seq: number; readonly type: T; readonly data: SessionEventDataMap[T] }
}[SessionEventType]

export type SessionEventOf<T extends SessionEventType> = Extract<SessionEvent, { type: T }>
export type AgentEventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>
