import { from, type SchedulerLike, throwError, timeout } from 'rxjs'
import { FlushTimeoutError } from '../contracts/errors.js'
import type { SessionStore } from '../contracts/store.js'
import { alreadyFlushed } from './memoryStore.js'

/**
 * The store as the agent uses it: every `flush()` that does not finish within `ms` errors with
 * `FlushTimeoutError`, so no wait on a store is unbounded (a checkpoint reports it and the agent
 * goes on, R36, R40; `dispose()` reports it and still closes the store and resolves, R29).
 * The timer runs on the agent's scheduler, so virtual time controls it in tests. A store that
 * has nothing to wait for (`alreadyFlushed`) is answered as before, with no timer.
 */
export const boundedStore = (store: SessionStore, ms: number, scheduler: SchedulerLike): SessionStore => {
  if (ms === Number.POSITIVE_INFINITY) return store
  const bounded: SessionStore = {
    load: () => store.load(),
    append: (events) => store.append(events),
    flush: () => {
      const pending = store.flush()
      if (pending === alreadyFlushed) return alreadyFlushed
      return from(pending).pipe(
        timeout({ first: ms, scheduler, with: () => throwError(() => new FlushTimeoutError(ms)) }),
      )
    },
  }
  if (store.close) bounded.close = () => store.close?.()
  // The journal is flushed by the store's own flush(), so it is handed on as it is (R50).
  return store.inbox ? { ...bounded, inbox: store.inbox } : bounded
}
