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
export const memoryStore = (initial: readonly SessionEvent[] = []): SessionStore => {
  const events: SessionEvent[] = [...initial]
  return {
    load: () => events.slice(),
    append: (batch) => {
      for (const event of batch) events.push(event)
    },
    flush: () => alreadyFlushed,
  }
}
