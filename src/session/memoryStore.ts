import { type Observable, of } from 'rxjs'
import type { SessionEvent } from '../contracts/events.js'
import type { SessionStore } from '../contracts/store.js'

/**
 * What a store's `flush()` may return when nothing is left to wait for (the memory store's does):
 * the agent then answers its checkpoint at once, without subscribing to anything. It is an
 * ordinary completed Observable for everyone else.
 */
export const alreadyFlushed: Observable<void> = of(undefined)

/** The default store: keeps the events in memory; flushing is immediate. */
export const memoryStore = (initial: readonly SessionEvent[] = []): SessionStore => new MemoryStore(initial)

/** A class, not an object of closures: every agent without a store of its own keeps one. */
class MemoryStore implements SessionStore {
  readonly #events: SessionEvent[]

  constructor(initial: readonly SessionEvent[]) {
    this.#events = [...initial]
  }

  load(): readonly SessionEvent[] {
    return this.#events.slice()
  }

  append(batch: readonly SessionEvent[]): void {
    for (const event of batch) this.#events.push(event)
  }

  flush(): Observable<void> {
    return alreadyFlushed
  }
}
