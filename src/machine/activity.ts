import type {
  AgentCancelCause,
  ContentBlock,
  DisposeCause,
  ToolCallBlock,
  ToolResultBlock,
  Usage,
} from '../contracts/messages.js'
import type { FinishReason } from '../contracts/model.js'
import type { ClaimedItem } from './queuedItem.js'

/*
 * What the agent is doing (`DeliveryState.activity`): claiming a prompt, running a turn, between
 * turns, or compacting; and the parts of a running turn.
 */

export type AbortCause = AgentCancelCause | DisposeCause

/**
 * Set on an activity by the first effective cancel (the first cause wins, R25). `requeue`: an
 * interrupting send cancelled it (R47), so a claimed prompt goes back to the queue instead of
 * settling `blocked`.
 */
export type Abort = { readonly cause: AbortCause; readonly keepInbox: boolean; readonly requeue?: boolean }

/** A claimed prompt between the claim (R10) and the admission decision (R11–R13). */
export type Claim = {
  readonly kind: 'claim'
  /** Activity number: signals carry it, so stale ones (after a cancel) are ignored. */
  readonly id: number
  /** The turn this claim opens when admitted. */
  readonly turn: number
  /** Outbox entries staged before the claim: the inherited prefix (R12). */
  readonly inherited: number
  /** The claimed item, its message made whole (never a compact `{id, text}`). */
  readonly item?: ClaimedItem
  readonly phase: 'opening' | 'dequeued' | 'deciding'
  readonly abort?: Abort
}

/** What the running step has produced so far. */
export type StepDraft = {
  readonly content: readonly ContentBlock[]
  readonly toolCalls: readonly ToolCallBlock[]
  readonly finish?: FinishReason
  /** What the provider reported (R73). */
  readonly usage?: Usage
  /** The prompt's size as estimated when the request was made: used when no usage comes (R73). */
  readonly inputEstimate?: number
}

/** A tool call's outcome, buffered until every earlier call of the batch is recorded. */
export type ToolOutcome = { readonly result: ToolResultBlock; readonly concluded: boolean }

/**
 * `request-failed`: the failed step is closed and `requestError` starts once the subscribers of
 * that `step/end` have returned; `request-error`: the hook runs, the only time `retry()` is
 * accepted while busy (R24).
 */
export type TurnPhase =
  | 'step-hook'
  | 'model'
  | 'tools'
  | 'turn-stopping'
  | 'request-failed'
  | 'request-error'
  /** A budget was passed at a step boundary (R80): the next step waits for `raiseBudget()`. */
  | 'budget-paused'
  /** The step's request failed and is made again when its delay is over (R117); the step stays open. */
  | 'retry-wait'

/**
 * A call's place in the approval of its step (R61, R62): it waits for a decision, or was
 * decided. A call that needs no approval has no slot.
 */
export type ApprovalSlot = 'pending' | 'approved' | 'denied'

export type Turn = {
  readonly kind: 'turn'
  readonly id: number
  readonly turn: number
  readonly step: number
  readonly phase: TurnPhase
  /** `step/start` written and `step/end` not yet. */
  readonly stepOpen: boolean
  readonly draft: StepDraft
  /** Tool results recorded so far in this step (model order), and whether one concluded. */
  readonly toolResults: number
  readonly concluded: boolean
  /** Which calls of the batch were dispatched (for R25's two abort codes). */
  readonly started?: readonly boolean[]
  /** Outcomes by call index that are not recorded yet (a later call finished first). */
  readonly outcomes?: readonly (ToolOutcome | undefined)[]
  /** Any step finished with `max-tokens` (R18): the turn's end reason sticks. */
  readonly maxTokens: boolean
  readonly requestError?: unknown
  readonly abort?: Abort
  /** Approval slots by call index, once the step's `needsApproval` answers are known (R61). */
  readonly approvals?: readonly (ApprovalSlot | undefined)[] | undefined
  /** The most steps this turn may take (`followup(x, {maxSteps})`, R81). */
  readonly maxSteps?: number
  /** The turn ends after this step for this reason (R80, R81). */
  readonly stop?: 'budget' | 'max-steps' | undefined
  /** How many times this step's request was made again after a retryable failure (R117). */
  readonly retries?: number | undefined
}

/** A turn ended (or an admission was rejected) and the driver's next move is scheduled (R13b). */
export type Between = { readonly kind: 'between'; readonly id: number; readonly checkpointed: boolean }

/** What a compaction was asked to do (R74): `ref` names its summariser to the runtime. */
export type CompactionOrder = {
  readonly ref: number
  readonly keepLastTurns: number
  /** The summariser is the agent's own model: its request counts against the budget (R80). */
  readonly byModel?: true
}

/**
 * A compaction between turns (R74, R75): the window is open, so sends wait as they do for any
 * turn boundary; `aborted` once `cancel()` or `dispose()` stopped it.
 */
export type Compacting = {
  readonly kind: 'compaction'
  readonly id: number
  readonly order: CompactionOrder
}

export type Activity = Claim | Turn | Between | Compacting

export const EMPTY_DRAFT: StepDraft = { content: [], toolCalls: [] }
