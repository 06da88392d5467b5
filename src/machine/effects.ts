import type { ContentBlock, MessageSource, ToolCallBlock } from '../contracts/messages.js'
import type { AbortCause } from './activity.js'
import type { Signal } from './inputs.js'

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
  /** R68: stop the step's model request and abort its signal; the turn goes on. */
  | { readonly kind: 'cut'; readonly activity: number; readonly step: number }
  /** R71: abort one call's signal and stop its run; its siblings and the turn go on. */
  | {
      readonly kind: 'cancel-call'
      readonly activity: number
      readonly step: number
      readonly index: number
      readonly reason?: string | undefined
    }
  /**
   * Feed `input` back after `ms` on the agent's scheduler, unless the activity ends first (its
   * `stop` or checkpoint clears the timer): a request's retry delay (R117).
   */
  | { readonly kind: 'timer'; readonly activity: number; readonly ms: number; readonly input: Signal }
  /** Unsubscribe whatever still runs for the activity and forget its signal. */
  | { readonly kind: 'stop'; readonly activity: number }
  | {
      readonly kind: 'prompt-submit'
      readonly activity: number
      readonly content: readonly ContentBlock[]
      readonly source: MessageSource
    }
  | { readonly kind: 'step-hook'; readonly activity: number; readonly turn: number; readonly step: number }
  /** `tools`: the version of the tool list the step sees (R100); absent, the list at creation. */
  | {
      readonly kind: 'model'
      readonly activity: number
      readonly turn: number
      readonly step: number
      readonly tools?: number
    }
  | {
      readonly kind: 'tools'
      readonly activity: number
      readonly turn: number
      readonly step: number
      /** The version of the tool list the step saw (R100): calls are looked up in it. */
      readonly tools?: number
      readonly calls: readonly ToolCallBlock[]
      /**
       * Run only these calls (indices into `calls`): their approval is known (R61). Without
       * it, the runner asks each tool's `needsApproval` first, and runs the batch when none does.
       */
      readonly only?: readonly number[]
    }
  /** Time a pending approval (R66): `approval/timeout` when its tool or the agent sets a limit. */
  | {
      readonly kind: 'approval-timer'
      readonly activity: number
      readonly step: number
      readonly index: number
      readonly call: ToolCallBlock
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
  /** R74: summarise the messages before the last `keepLastTurns` turns with summariser `ref`. */
  | {
      readonly kind: 'summarize'
      readonly activity: number
      /** The last turn that ended: what the default summariser's request says it follows. */
      readonly turn: number
      readonly ref: number
      readonly keepLastTurns: number
    }
  /** Flush appends made outside any turn right away (R36); a failure is only reported. */
  | { readonly kind: 'persist' }
  /** `dispose()`: flush and close the store, then post `dispose/closed`. */
  | { readonly kind: 'close-store' }
  /** Complete `events$` and `transcript$`; the agent is disposed. */
  | { readonly kind: 'complete' }
