import type { AgentMessage, AgentMessageId } from './messages.js'

/** Where a waiting item is: queued (waking), parked, or staged as steering or context. */
export type InboxItemPlacement = 'queued' | 'parked' | 'steering' | 'context'

/** One waiting item: the accepted message, as data, and where it waits. */
export type InboxItem = { readonly message: AgentMessage; readonly placement: InboxItemPlacement }

/**
 * What waits in an agent (`agent.inbox`, `agent.inbox$`), frozen: the queue in FIFO order (waking
 * and parked items), then the outbox (staged steering and context, in acceptance order).
 */
export type InboxSnapshot = { readonly queue: readonly InboxItem[]; readonly outbox: readonly InboxItem[] }

/** Why a waiting item left without entering the transcript. */
export type DiscardReason = 'cancel' | 'dispose' | 'removed' | 'expired'

/**
 * What became of a message (`agent.outcome(id)`). `seq` is the `seq` of the durable event that
 * carries the id; a steering's `step` is the step whose `step/end` follows it. `rolledBack`: the
 * turn it was delivered in was undone by a later `rollback` (R77); it stays delivered.
 */
export type Outcome =
  | {
      readonly kind: 'delivered'
      readonly as: 'prompt'
      readonly turn: number
      readonly seq: number
      readonly rolledBack?: true
    }
  | {
      readonly kind: 'delivered'
      readonly as: 'steering'
      readonly turn: number
      readonly step: number
      readonly seq: number
      /** An interrupting steer (R68) that cut step `step` of turn `turn`. */
      readonly interrupted?: { readonly turn: number; readonly step: number }
      readonly rolledBack?: true
    }
  | {
      readonly kind: 'delivered'
      readonly as: 'context'
      readonly seq: number
      readonly turn?: number
      readonly rolledBack?: true
    }
  | { readonly kind: 'blocked'; readonly reason: unknown }
  | { readonly kind: 'discarded'; readonly reason: DiscardReason }
  | { readonly kind: 'refused'; readonly error: unknown }

/**
 * One record of a store's inbox journal, in the order they happened: what was accepted to wait,
 * each change to it, and each settlement that leaves no trace in the transcript. Folding the
 * records (and dropping the ids the transcript holds) gives what still waits.
 */
export type InboxRecord =
  | {
      readonly op: 'add'
      readonly message: AgentMessage
      readonly placement: InboxItemPlacement
      /** `head`: at the head of the queue (an interrupting send); default the tail. */
      readonly at?: 'head'
      /** A steering's turn guard. */
      readonly turn?: number
      /** A followup's step limit (R81). */
      readonly maxSteps?: number
    }
  | { readonly op: 'replace'; readonly message: AgentMessage }
  /**
   * The item now stands right before `before` in the queue (`null`: at its tail). Named by id, not
   * by index, so the record means the same whether or not a claimed prompt is counted.
   */
  | { readonly op: 'move'; readonly id: AgentMessageId; readonly before: AgentMessageId | null }
  | { readonly op: 'promote'; readonly id: AgentMessageId; readonly to: 'steering' | 'head' }
  | { readonly op: 'settle'; readonly id: AgentMessageId; readonly outcome: Outcome }

/** A store's inbox journal (R50): synchronous `load`, buffered `append`, flushed by the store's `flush()`. */
export type InboxJournal = {
  load(): readonly InboxRecord[]
  append(records: readonly InboxRecord[]): void
}
