import type { Budget } from '../contracts/agentOptions.js'
import type { BudgetUsage } from '../contracts/events.js'
import type {
  AgentCancelCause,
  AgentMessage,
  AgentMessageId,
  AgentStatus,
  ContentBlock,
  DisposeCause,
  MessageSource,
  ToolCallBlock,
  ToolResultBlock,
  Usage,
  UserMessageData,
} from '../contracts/messages.js'
import type { FinishReason } from '../contracts/model.js'
import { userSource, userTextMessage } from '../messages/userText.js'
import { emptyFifo, type Fifo } from './fifo.js'

/**
 * A queued FIFO item: the accepted message and whether it may wake the driver (R8). A waking
 * item is the message itself, or `{id, text}` for a string send; a parked one is wrapped.
 *
 * Why `{id, text}`: a string send is the common followup, and a queue can hold many of them.
 * Its message (an object, a content array and a text block) is made again, an equal value, when
 * the item is dequeued or discarded: about 100 bytes per queued message instead of 200
 * (docs/performance.md#compact-queued-text).
 */
export type QueuedItem = AgentMessage | QueuedText | { readonly parked: AgentMessage } | LimitedItem
export type QueuedText = { readonly id: AgentMessageId; readonly text: string }
/** A waking followup whose turn may take at most `maxSteps` steps (R81). */
export type LimitedItem = { readonly limited: AgentMessage; readonly maxSteps: number }
/** A queued item as a claim keeps it: a compact one made whole. */
export type ClaimedItem = AgentMessage | { readonly parked: AgentMessage } | LimitedItem
export const claimedItem = (item: QueuedItem): ClaimedItem =>
  'text' in item ? userTextMessage(item.id, item.text) : item
export const itemMessage = (item: QueuedItem): AgentMessage => {
  const whole = claimedItem(item)
  return 'parked' in whole ? whole.parked : 'limited' in whole ? whole.limited : whole
}
export const itemWakes = (item: QueuedItem): boolean => !('parked' in item)
/** The item's id, without making a compact item's message. */
export const itemId = (item: QueuedItem): AgentMessageId =>
  'parked' in item ? item.parked.id : 'limited' in item ? item.limited.id : item.id

/** The item's source, without making a compact item's message. */
export const itemSource = (item: QueuedItem): MessageSource =>
  'parked' in item
    ? item.parked.source
    : 'limited' in item
      ? item.limited.source
      : 'text' in item
        ? userSource
        : item.source

/** The most steps the turn this item opens may take (R81), when its followup said. */
export const itemMaxSteps = (item: QueuedItem): number | undefined =>
  'limited' in item ? item.maxSteps : undefined

/** Next-step input staged for the next safe boundary. Steering carries its id; context may. */
export type OutboxEntry =
  /** `guard`: the only turn this steering may land in (R49); it expires when that turn ends. */
  | {
      readonly kind: 'steering'
      readonly message: AgentMessage
      readonly guard?: number
      /** This steer cut the step it is drained into (R68). */
      readonly cut?: true
    }
  | { readonly kind: 'context'; readonly data: UserMessageData & { readonly id?: AgentMessage['id'] } }

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
}

/** A turn ended (or an admission was rejected) and the driver's next move is scheduled (R13b). */
export type Between = { readonly kind: 'between'; readonly id: number; readonly checkpointed: boolean }

/** What a compaction was asked to do (R74): `ref` names its summariser to the runtime. */
export type CompactionOrder = { readonly ref: number; readonly keepLastTurns: number }

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

/** A tool list by version and names (R100): what the runtime's catalog holds under `version`. */
export type ToolListRef = { readonly version: number; readonly names: readonly string[] }

/** The latest list of the agent's tool sources, and the list the running (or last) step saw. */
export type ToolLists = { readonly latest: ToolListRef; readonly step: ToolListRef }

export type Disposal = 'none' | 'disposing' | 'closing' | 'disposed'

export type DeliveryState = {
  readonly agentId: string
  readonly queue: Fifo<QueuedItem>
  /** How many queued items may wake the driver; parked ones do not count (R8). */
  readonly waking: number
  readonly outbox: readonly OutboxEntry[]
  readonly status: AgentStatus
  /** The acceptance window (`acceptsNextStep`). */
  readonly window: boolean
  readonly wakeScheduled: boolean
  readonly activity: Activity | null
  readonly lastTurn: number
  readonly nextActivity: number
  /** `retry()` was called inside `requestError`; the retry turn opens after this turn's end. */
  readonly retryPending: boolean
  /** The request error of the last turn `retry()` was called for (read while `retryPending`). */
  readonly retryError?: unknown
  readonly disposal: Disposal
  /**
   * `cancel-requested` is published and its clear not yet run (R25): the turn is as good as
   * aborted, so an interrupting steer of a `cancel-requested` subscriber cuts nothing (R27, R68).
   */
  readonly cancelling: boolean
  /** The disposal is a release (R57): nothing waiting is discarded. */
  readonly releasing?: true
  /**
   * `dispose()` left a paused turn as the log has it (R64): the context staged for it stays in the
   * journal for the session that reopens it, so it is neither appended here nor forgotten (R42).
   */
  readonly suspended?: true
  /** The store keeps an inbox journal: every inbox change is also a `journal` output (R50). */
  readonly journaling: boolean
  /** What the model reported over the session, counted against `budget` (R80). */
  readonly usage: BudgetUsage
  readonly budget?: Budget
  /** A compaction asked for while work ran: it runs before the next admission (R74, R76). */
  readonly compactionDue?: CompactionOrder | undefined
  /** R76: compact by itself after a turn whose last request's `inputTokens` exceeded this. */
  readonly autoCompaction?: (CompactionOrder & { readonly threshold: number }) | undefined
  /** The `inputTokens` of the turn's last request so far (R73, R76). */
  readonly requestInput?: number | undefined
  /** Absent until a tool source changes its list: every step sees the list at creation (R100). */
  readonly tools?: ToolLists | undefined
}

export const initialState = (agentId: string, lastTurn = 0): DeliveryState => ({
  agentId,
  queue: emptyFifo(),
  waking: 0,
  outbox: [],
  status: 'idle',
  window: false,
  wakeScheduled: false,
  activity: null,
  lastTurn,
  nextActivity: 1,
  retryPending: false,
  disposal: 'none',
  cancelling: false,
  journaling: false,
  usage: NO_USAGE,
})

export const NO_USAGE: BudgetUsage = Object.freeze({ totalTokens: 0, requests: 0 })

export const EMPTY_DRAFT: StepDraft = { content: [], toolCalls: [] }

/** R28: no wake scheduled, no admission/turn active, no waking item queued. */
export const isQuiescent = (s: DeliveryState): boolean =>
  !s.wakeScheduled && s.activity === null && s.waking === 0

/** An admission or a turn is active (a claim counts from the moment it opens the window). */
export const activeWork = (s: DeliveryState): Claim | Turn | undefined =>
  s.activity && (s.activity.kind === 'claim' || s.activity.kind === 'turn') ? s.activity : undefined

/**
 * A claim is taking the queue head (R41): the head is shown in the queue but no longer waits.
 * Once a cancel hit the claim it never dequeues, so the head waits again (R43).
 */
export const dequeuingHead = (s: DeliveryState): boolean =>
  s.activity?.kind === 'claim' && s.activity.phase === 'opening' && !s.activity.abort && s.queue.size > 0

export const hasSteering = (outbox: readonly OutboxEntry[]): boolean =>
  outbox.some((e) => e.kind === 'steering')
