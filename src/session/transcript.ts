import { AgentDisposedError } from '../contracts/errors.js'
import type { DurableDraft, SessionEvent } from '../contracts/events.js'
import type { InboxRecord } from '../contracts/inbox.js'
import type { Message } from '../contracts/messages.js'
import type { SessionStore } from '../contracts/store.js'
import { errorText } from '../messages/errorText.js'
import { deepFreeze } from '../messages/snapshot.js'
import { deepFreezeNewParts } from './deepFreezeNewParts.js'
import { type CompactionPlan, MessageProjection } from './messageProjection.js'

/** Who hears of a store failure outside a flush (the agent's driver, as a `store/failed` signal). */
export type StoreFailures = { storeFailed(error: unknown): void }

/**
 * The transcript in memory: numbers drafts (`seq` 1, 2, 3 …), freezes them, hands them to the
 * store, and keeps the surface projection up to date incrementally, so building a request never
 * re-derives the whole history.
 *
 * A store whose `append` throws loses nothing: the events stay here and are handed over again
 * with the next append or flush (R40).
 */
export class Transcript {
  private readonly list: SessionEvent[]
  private readonly projection = new MessageProjection()
  private snapshot: readonly Message[] | undefined
  private eventsSnapshot: readonly SessionEvent[] | undefined
  /** How many events the store has accepted. */
  private stored: number
  /** Inbox journal records the store has not accepted yet (R50): handed over with the events. */
  private records: InboxRecord[] = []
  /**
   * Set once `dispose()` closes the store (R29, R40): later events stay here only, and whether
   * its final flush failed decides what `session.flush()` says from then on.
   */
  private closed: { readonly flushFailure?: { readonly error: unknown } } | undefined

  /** Told of a store that refused an append (R40); none while an agent is still being opened. */
  private failures: StoreFailures | undefined

  constructor(
    private readonly store: SessionStore,
    history: readonly SessionEvent[],
  ) {
    this.list = history.map((event) => deepFreeze(event))
    this.stored = history.length
    for (const event of this.list) this.project(event)
  }

  /**
   * From now on a store that refuses an append is reported to `failures` (the agent's driver,
   * once it exists: what the store refuses while a session is restored is handed over again with
   * the next append or flush, and reported then).
   */
  reportFailuresTo(failures: StoreFailures): void {
    this.failures = failures
  }

  /** The live list: the agent's own reads (replay, a final flush's count) need no copy. */
  get events(): readonly SessionEvent[] {
    return this.list
  }

  /**
   * A frozen copy for `session.events`, shared until the next event is appended: reading it in
   * a loop costs one copy, not one per read.
   */
  eventsCopy(): readonly SessionEvent[] {
    this.eventsSnapshot ??= Object.freeze(this.list.slice())
    return this.eventsSnapshot
  }

  get size(): number {
    return this.list.length
  }

  append(draft: DurableDraft): SessionEvent {
    // The wrapper is new; only its data can hold further new objects.
    const event = Object.freeze({
      seq: this.list.length + 1,
      type: draft.type,
      data: deepFreezeNewParts(draft.data),
    } as SessionEvent)
    this.list.push(event)
    this.eventsSnapshot = undefined
    this.project(event)
    // After the detach nothing is reported here: a subscriber of that report could inject again.
    if (this.closed) return event
    try {
      this.handOver()
    } catch (error) {
      this.failures?.storeFailed(error)
    }
    return event
  }

  /**
   * Hands events the store has not accepted yet to it; throws the store's error, keeping them.
   * Once the store is closed nothing is handed over: this throws `AgentDisposedError` when some
   * events never reached it or its final flush failed, so `session.flush()` after `dispose()`
   * rejects rather than vouch for them (R40), and returns when all is durable.
   */
  handOver(): void {
    if (this.closed) return this.checkClosed(this.closed)
    if (this.records.length > 0) {
      // Kept when the journal throws, and handed over again with the next flush (R40).
      this.store.inbox?.append(this.records)
      this.records = []
    }
    if (this.stored === this.list.length) return
    const batch =
      this.stored === this.list.length - 1
        ? [this.list[this.stored] as SessionEvent]
        : this.list.slice(this.stored)
    this.store.append(batch)
    this.stored = this.list.length
  }

  /**
   * Buffers a record for the store's inbox journal (R50). It reaches the store with the next flush
   * (a checkpoint, an append outside a turn, `session.flush()`): a send never waits for the disk.
   */
  journal(record: InboxRecord): void {
    if (!this.closed) this.records.push(record)
  }

  /**
   * `dispose()` is about to close the store, after its final flush (which failed with
   * `flushFailure.error`, if given): from now on nothing is handed to it. An event appended
   * later (an inject from the subscriber of a final-flush failure, say) stays in
   * `session.events` and `transcript$` only, and so does one the store refused before.
   */
  detach(flushFailure?: { readonly error: unknown }): void {
    this.closed = flushFailure ? { flushFailure } : {}
  }

  /** Whether `dispose()` closed the store: a flush then asks nothing of it (see `handOver`). */
  get detached(): boolean {
    return this.closed !== undefined
  }

  private checkClosed(closed: NonNullable<Transcript['closed']>): void {
    const missing = this.list.length - this.stored + this.records.length
    if (missing > 0)
      throw new AgentDisposedError(
        'session.flush()',
        missing === 1
          ? '1 event never reached its store (it is in session.events and transcript$ only)'
          : `${missing} events never reached its store (they are in session.events and transcript$ only)`,
      )
    if (closed.flushFailure) {
      const { error } = closed.flushFailure
      throw new AgentDisposedError('session.flush()', `its final flush failed: ${errorText(error)}`)
    }
  }

  /** A frozen copy, shared until the next message is added (requests share it by reference). */
  messages(): readonly Message[] {
    this.snapshot ??= Object.freeze(this.projection.entries.map((e) => e.message))
    return this.snapshot
  }

  /** How many messages the projection holds: a position to take `messagesAt` of later. */
  get messageCount(): number {
    return this.projection.entries.length
  }

  /**
   * The first `count` messages, frozen. Within a turn the projection only grows (a compaction or
   * a rollback runs between turns, never under a request), so this is the same list whenever a
   * request asks for it: it can take its position now and copy only when read.
   */
  messagesAt(count: number): readonly Message[] {
    const entries = this.projection.entries
    if (count === entries.length) return this.messages()
    if (this.snapshot && this.snapshot.length === count) return this.snapshot
    return Object.freeze(entries.slice(0, count).map((e) => e.message))
  }

  /** The size of `session.messages()` in characters, for a request's usage estimate (R73). */
  get messageChars(): number {
    return this.projection.size
  }

  /**
   * What a compaction keeping the last `keep` turns would summarise now (R74), and the last seq
   * it covers; `undefined` when nothing is before the kept tail.
   */
  compactionPlan(keep: number): (CompactionPlan & { readonly upToSeq: number }) | undefined {
    const upToSeq = this.list.length
    const plan = this.projection.plan(keep, upToSeq)
    return plan && { keptFromSeq: plan.keptFromSeq, messages: plan.messages, upToSeq }
  }

  /** The turns `session.messages()` holds now, oldest first (what `rollback(n)` counts, R77). */
  get timelineTurns(): readonly number[] {
    return this.projection.timelineTurns
  }

  private project(event: SessionEvent): void {
    if (this.projection.see(event) !== undefined) this.snapshot = undefined
  }
}
