import { from, type ObservableInput, type SchedulerLike, throwError, timeout } from 'rxjs'
import { FlushTimeoutError } from '../contracts/errors.js'
import type { SessionEvent } from '../contracts/events.js'
import type { InboxJournal } from '../contracts/inbox.js'
import type { SessionStore } from '../contracts/store.js'
import { alreadyFlushed } from './memoryStore.js'

/**
 * The store as the agent uses it: every `flush()` that does not finish within `ms` errors with
 * `FlushTimeoutError`, so no wait on a store is unbounded (a checkpoint reports it and the agent
 * goes on, R36, R40; `dispose()` reports it and still closes the store and resolves, R29).
 * The timer runs on the agent's scheduler, so virtual time controls it in tests. A store that
 * has nothing to wait for (`alreadyFlushed`) is answered as before, with no timer.
 */
export const boundedStore = (store: SessionStore, ms: number, scheduler: SchedulerLike): SessionStore =>
  ms === Number.POSITIVE_INFINITY ? store : new BoundedStore(store, ms, scheduler)

/**
 * A class with its methods on the prototype rather than an object of closures: every agent keeps
 * its store's wrapper for as long as it is open, idle or not.
 */
class BoundedStore implements SessionStore {
  /** The journal is flushed by the store's own flush(), so it is handed on as it is (R50). */
  declare readonly inbox?: InboxJournal
  readonly #store: SessionStore
  readonly #ms: number
  readonly #scheduler: SchedulerLike

  constructor(store: SessionStore, ms: number, scheduler: SchedulerLike) {
    this.#store = store
    this.#ms = ms
    this.#scheduler = scheduler
    // Only a store with a journal gives one: the agent keeps its inbox in memory otherwise.
    if (store.inbox) (this as { inbox?: InboxJournal }).inbox = store.inbox
  }

  load(): readonly SessionEvent[] {
    return this.#store.load()
  }

  append(events: readonly SessionEvent[]): void {
    this.#store.append(events)
  }

  flush(): ObservableInput<void> {
    const pending = this.#store.flush()
    if (pending === alreadyFlushed) return alreadyFlushed
    const ms = this.#ms
    return from(pending).pipe(
      timeout({
        first: ms,
        scheduler: this.#scheduler,
        with: () => throwError(() => new FlushTimeoutError(ms)),
      }),
    )
  }

  close(): void {
    this.#store.close?.()
  }
}
