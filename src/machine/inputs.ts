import type { BudgetLimits, SessionEventDataMap } from '../contracts/events.js'
import type {
  AgentCancelCause,
  AgentMessage,
  AgentMessageId,
  ContentBlock,
  MessageSource,
  SendTarget,
  ToolResultBlock,
  UserMessageData,
} from '../contracts/messages.js'
import type { ModelEvent } from '../contracts/model.js'
import type { CompactionOrder } from './activity.js'

/** Bound for the queued FIFO or the steering outbox: `next-turn`, or `next-step` with wakeup. */
export type QueueSend = {
  readonly type: 'queue'
  readonly message: AgentMessage
  readonly target: SendTarget
  readonly wakeup: boolean
  /**
   * The string of a string-shorthand send: the queue may keep such an item as `{id, text}`
   * (see `QueuedItem`).
   */
  readonly text?: string | undefined
  /** `ifBusy: 'interrupt'` (R47): at the head of the queue, then cancel what runs (keepInbox). */
  readonly interrupt?: boolean | undefined
  /** A steer's turn guard (R49). */
  readonly turn?: number | undefined
  /** `onApproval: 'deny'` (R63): deny every pending approval when this send is applied. */
  readonly deny?: boolean | undefined
  /** `followup(x, {maxSteps})` (R81): the turn it opens takes at most this many steps. */
  readonly maxSteps?: number | undefined
  /** `steer(x, {interrupt: true})` (R68): applied while the model streams, it cuts the step. */
  readonly cut?: boolean | undefined
}
/** `next-step` without wakeup: staged context inside the window, appended at once outside. */
export type InjectSend = {
  readonly type: 'inject'
  readonly message: AgentMessage
  readonly deny?: boolean | undefined
}

/**
 * A call of the running batch by its position: what `decide` and `cancel-call` inputs carry. The
 * model chooses call ids and may repeat one in a step (or send an empty one), so a decision or a
 * cancel names the call's place, never its id (R62, R71, V9).
 */
export type CallAt = { readonly activity: number; readonly step: number; readonly index: number }

/** A decision on one pending approval (R62, R63, R66). */
export type Decision = {
  /** The model's id of the call, for the record (the call is named by its position). */
  readonly callId: string
  readonly decision: 'approved' | 'denied'
  readonly reason?: string | undefined
  readonly source: MessageSource
  readonly byMessage?: AgentMessageId | undefined
  /** `cancelToolCall` settled the waiting call (R71): its result is `CANCELLED`. */
  readonly cancelled?: true | undefined
}

/** Calls from the public surface, already validated, snapshotted and (for sends) given an id. */
/** A refusal as data (its error's name and message), so a journal can hold it. */
export type RefusalData = { readonly name: string; readonly message: string }

export type Command =
  | QueueSend
  | InjectSend
  | { readonly type: 'cancel'; readonly cause: AgentCancelCause; readonly keepInbox: boolean }
  | { readonly type: 'retry' }
  /**
   * `dispose()` (R29); with `keepInbox`, a release (R57): the driver stops without discarding,
   * and what waits stays where it is (in the store's journal) for the next owner.
   */
  | { readonly type: 'dispose'; readonly keepInbox?: boolean }
  /** Inbox control (R43–R46): each acts on the item `id` if it is still waiting. */
  | { readonly type: 'remove'; readonly id: AgentMessageId }
  | { readonly type: 'replace'; readonly message: AgentMessage }
  | { readonly type: 'move'; readonly id: AgentMessageId; readonly index: number }
  | { readonly type: 'promote'; readonly id: AgentMessageId }
  /**
   * A send minted in another process that this agent's policy refused when it applied it (R55):
   * it settles `refused`, in order with everything else, and the settlement is journaled.
   */
  | { readonly type: 'refuse'; readonly id: AgentMessageId; readonly error: RefusalData }
  /** `approve(call)` / `deny(call)` (R62): the call by its position, resolved by the façade. */
  | ({ readonly type: 'decide' } & Decision & CallAt)
  /** `cancelToolCall(call, {reason})` (R71): that call alone settles `CANCELLED`. */
  | ({ readonly type: 'cancel-call'; readonly reason?: string | undefined } & CallAt)
  /** `raiseBudget(limits)` (R80): new limits, checked against the usage by the façade. */
  | { readonly type: 'raise-budget'; readonly limits: BudgetLimits }
  /** `rollback(turns)` (R77): the messages go back to the end of turn `toTurn` (0: before any). */
  | { readonly type: 'rollback'; readonly toTurn: number }
  /** `compact(options)` (R74): `ref` names the summariser the runtime keeps for it. */
  | ({ readonly type: 'compact' } & CompactionOrder)

/** An allowed admission, after every `promptSubmit` hook ran and the decision validated. */
export type Admission = {
  readonly content?: readonly ContentBlock[]
  readonly additionalContexts: readonly UserMessageData[]
}

/**
 * What the runtime read of a retryable request error (R117), so the reducer reads no error and
 * draws no random number: the wait the error asked for (`retryAfterMs`), and `jitter`, a random
 * number in [0, 1) that spreads the retries of many agents failing at once.
 */
export type RetryHint = { readonly afterMs?: number | undefined; readonly jitter: number }

/**
 * Turn-boundary signals: continuations the reducer posted to itself, scheduled moves, and the
 * outcomes of effects. Each names the activity it belongs to, so a late one is ignored.
 */
export type Signal =
  | { readonly type: 'wake' }
  | { readonly type: 'claim/dequeue'; readonly activity: number }
  | { readonly type: 'claim/submit'; readonly activity: number }
  | { readonly type: 'admission/allowed'; readonly activity: number; readonly admission: Admission }
  | { readonly type: 'admission/blocked'; readonly activity: number; readonly reason: unknown }
  | { readonly type: 'admission/failed'; readonly activity: number; readonly error: unknown }
  | {
      readonly type: 'cancel/clear'
      readonly cause: AgentCancelCause
      readonly keepInbox: boolean
      /** An interrupting send cancels (R47): a claimed prompt goes back to the queue. */
      readonly requeue?: boolean
    }
  | { readonly type: 'unwind'; readonly activity: number }
  | { readonly type: 'advance'; readonly activity: number }
  | { readonly type: 'step-hook/done'; readonly activity: number; readonly step: number }
  | {
      readonly type: 'hook/failed'
      readonly activity: number
      readonly step: number
      readonly error: unknown
    }
  /** The request was made; `inputTokens` is its prompt's estimated size, kept for R73. */
  | {
      readonly type: 'model/started'
      readonly activity: number
      readonly step: number
      readonly inputTokens: number
    }
  | {
      readonly type: 'model/event'
      readonly activity: number
      readonly step: number
      readonly event: ModelEvent
    }
  | { readonly type: 'model/complete'; readonly activity: number; readonly step: number }
  | {
      readonly type: 'model/failed'
      readonly activity: number
      readonly step: number
      readonly error: unknown
      /** The error is retryable (R108, R117): what the reducer needs to retry the request. */
      readonly retry?: RetryHint | undefined
    }
  /** A failed request's retry delay is over: the step's request is made again (R117). */
  | { readonly type: 'request/retry'; readonly activity: number; readonly step: number }
  | {
      readonly type: 'tool/result'
      readonly activity: number
      readonly step: number
      readonly index: number
      readonly result: ToolResultBlock
      readonly concluded: boolean
    }
  | {
      readonly type: 'tool/started'
      readonly activity: number
      readonly step: number
      readonly index: number
    }
  /** The batch runner itself failed (not a tool: their failures are results, R21b): R23. */
  | {
      readonly type: 'tools/failed'
      readonly activity: number
      readonly step: number
      readonly error: unknown
    }
  /**
   * Which calls of the step need approval (R61), known once every `needsApproval` answered;
   * `failures`: what the predicates that threw or rejected threw (they count as needing it).
   */
  | {
      readonly type: 'approvals/checked'
      readonly activity: number
      readonly step: number
      readonly needs: readonly boolean[]
      readonly failures: readonly unknown[]
    }
  /** A pending approval's time ran out (R66): it is denied with reason `'timeout'`. */
  | {
      readonly type: 'approval/timeout'
      readonly activity: number
      readonly step: number
      readonly index: number
    }
  /** A session reopened paused (R65): run what the pause does not hold, time what it does. */
  | {
      readonly type: 'turn/resume'
      readonly activity: number
      /** The reasons of the denials made before the restart, by call index (R62). */
      readonly reasons?: readonly (string | undefined)[]
      /**
       * The calls to run again: those the log shows approved or needing no approval, without a
       * result. Named when the session reopens, since a decision made before this signal (right
       * after `createAgent` returned) runs its call itself.
       */
      readonly owed?: readonly number[]
    }
  /**
   * A tool source changed the agent's list (R100): version `version` holds `names`; `error`, what
   * the catalog dropped from it (a duplicate name, a bad definition) or a source that failed.
   */
  | {
      readonly type: 'tools/listed'
      readonly version: number
      readonly names: readonly string[]
      readonly error?: unknown
    }
  /** `ctx.context(input)` from a tool (R22): staged like an inject, without an id. */
  | { readonly type: 'tool/context'; readonly data: UserMessageData }
  | { readonly type: 'turn-stopping/done'; readonly activity: number }
  | { readonly type: 'request-error/start'; readonly activity: number }
  | { readonly type: 'request-error/done'; readonly activity: number }
  | { readonly type: 'checkpoint/done'; readonly activity: number }
  | { readonly type: 'checkpoint/failed'; readonly activity: number; readonly error: unknown }
  /** The summary is written (R74); without `compaction`, there was nothing to summarise. */
  | {
      readonly type: 'compaction/done'
      readonly activity: number
      readonly compaction?: SessionEventDataMap['compaction']
    }
  /** The summariser threw, errored or gave no text (R75). */
  | { readonly type: 'compaction/failed'; readonly activity: number; readonly error: unknown }
  | { readonly type: 'dispose/close' }
  | { readonly type: 'dispose/closed' }
  /** The store refused an append or a flush outside a checkpoint (R40). */
  | { readonly type: 'store/failed'; readonly error: unknown }

export type Input = Command | Signal

/** The input of one type, as its handler receives it. */
export type InputOf<T extends Input['type']> = Extract<Input, { readonly type: T }>
