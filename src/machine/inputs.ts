import type { AgentEvent, DurableDraft } from '../contracts/events.js'
import type {
  AgentCancelCause,
  ContentBlock,
  MessageSource,
  ToolCallBlock,
  ToolResultBlock,
  UserMessageData,
} from '../contracts/messages.js'
import type { ModelEvent } from '../contracts/model.js'
import type { InjectSend, QueueSend } from '../runtime/splitSends.js'
import type { AbortCause } from './state.js'

/** Calls from the public surface, already validated, snapshotted and (for sends) given an id. */
export type Command =
  | QueueSend
  | InjectSend
  | { readonly type: 'cancel'; readonly cause: AgentCancelCause; readonly keepInbox: boolean }
  | { readonly type: 'retry' }
  | { readonly type: 'dispose' }

/** An allowed admission, after every `promptSubmit` hook ran and the decision validated. */
export type Admission = {
  readonly content?: readonly ContentBlock[]
  readonly additionalContexts: readonly UserMessageData[]
}

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
  | { readonly type: 'cancel/clear'; readonly cause: AgentCancelCause; readonly keepInbox: boolean }
  | { readonly type: 'unwind'; readonly activity: number }
  | { readonly type: 'advance'; readonly activity: number }
  | { readonly type: 'step-hook/done'; readonly activity: number; readonly step: number }
  | {
      readonly type: 'hook/failed'
      readonly activity: number
      readonly step: number
      readonly error: unknown
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
    }
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
  /** `ctx.context(input)` from a tool (R22): staged like an inject, without an id. */
  | { readonly type: 'tool/context'; readonly data: UserMessageData }
  | { readonly type: 'turn-stopping/done'; readonly activity: number }
  | { readonly type: 'request-error/start'; readonly activity: number }
  | { readonly type: 'request-error/done'; readonly activity: number }
  | { readonly type: 'checkpoint/done'; readonly activity: number }
  | { readonly type: 'checkpoint/failed'; readonly activity: number; readonly error: unknown }
  | { readonly type: 'dispose/finalize' }
  | { readonly type: 'finalized' }
  /** The store refused an append or a flush outside a checkpoint (R40). */
  | { readonly type: 'store/failed'; readonly error: unknown }

export type Input = Command | Signal

/** Work for the effect runner, as data. The reducer never performs any of it. */
export type Effect =
  /** Post a continuation: processed after the calls made by subscribers of earlier outputs. */
  | { readonly kind: 'post'; readonly input: Signal }
  /**
   * Post on the agent's scheduler, after the current call stack (R6, R13b). `late` hops twice,
   * so that work queued by abort listeners (a Promise they resolve) runs first (R25).
   */
  | { readonly kind: 'schedule'; readonly input: Signal; readonly late?: boolean }
  | { readonly kind: 'abort'; readonly activity: number; readonly cause: AbortCause }
  /** Unsubscribe whatever still runs for the activity and forget its signal. */
  | { readonly kind: 'stop'; readonly activity: number }
  | {
      readonly kind: 'prompt-submit'
      readonly activity: number
      readonly content: readonly ContentBlock[]
      readonly source: MessageSource
    }
  | { readonly kind: 'step-hook'; readonly activity: number; readonly turn: number; readonly step: number }
  | { readonly kind: 'model'; readonly activity: number; readonly turn: number; readonly step: number }
  | {
      readonly kind: 'tools'
      readonly activity: number
      readonly turn: number
      readonly step: number
      readonly calls: readonly ToolCallBlock[]
    }
  | {
      readonly kind: 'turn-stopping'
      readonly activity: number
      readonly turn: number
      readonly step: number
    }
  | {
      readonly kind: 'request-error'
      readonly activity: number
      readonly turn: number
      readonly step: number
      readonly error: unknown
    }
  | { readonly kind: 'checkpoint'; readonly activity: number }
  /** Flush appends made outside any turn right away (R36); a failure is only reported. */
  | { readonly kind: 'persist' }
  /** `dispose()`: flush and close the store, then post `finalized`. */
  | { readonly kind: 'finalize' }
  /** Complete `events$` and `transcript$`; the agent is disposed. */
  | { readonly kind: 'complete' }

/** One item of a reduction's ordered output. */
export type Output =
  | { readonly kind: 'live'; readonly event: AgentEvent }
  | { readonly kind: 'durable'; readonly draft: DurableDraft }
  | { readonly kind: 'effect'; readonly effect: Effect }
