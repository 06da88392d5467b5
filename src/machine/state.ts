import type { Budget } from '../contracts/agentOptions.js'
import type { SessionUsage } from '../contracts/events.js'
import type { AgentStatus } from '../contracts/messages.js'
import type { Activity, Claim, CompactionOrder, Turn } from './activity.js'
import { emptyFifo, type Fifo } from './fifo.js'
import type { OutboxEntry } from './outboxEntry.js'
import type { QueuedItem } from './queuedItem.js'
import { NO_USAGE } from './usageFold.js'

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
  /** `agent.usage`: every request of the session, folded from its log (R73), what `budget` counts (R80). */
  readonly usage: SessionUsage
  readonly budget?: Budget
  /** A compaction asked for while work ran: it runs before the next admission (R74, R76). */
  readonly compactionDue?: CompactionOrder | undefined
  /** R76: compact by itself after a turn whose last request's `inputTokens` exceeded this. */
  readonly autoCompaction?: (CompactionOrder & { readonly threshold: number }) | undefined
  /** The `inputTokens` of the turn's last request so far (R73, R76). */
  readonly requestInput?: number | undefined
  /** Absent until a tool source changes its list: every step sees the list at creation (R100). */
  readonly tools?: ToolLists | undefined
  /** The agent's step cap of a turn whose followup sets none (R116); absent: no cap. */
  readonly maxSteps?: number | undefined
  /** How many times a retryable request failure is made again (R117); absent: never. */
  readonly maxRetries?: number | undefined
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
