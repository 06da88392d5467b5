import { defer, from, type Observable, type ObservableInput, of } from 'rxjs'
import type { SessionEvent } from '../contracts/events.js'

/**
 * Where durable events live (R35). `append` is buffered and synchronous; `flush` makes what was
 * appended so far durable and may be asynchronous (any `ObservableInput`, so a Promise works
 * and a marble `cold()` works in tests); `load` is synchronous, so an agent can be created on a
 * store and continue its session at once (R37).
 */
export type SessionStore = {
  load(): readonly SessionEvent[]
  append(events: readonly SessionEvent[]): void
  flush(): ObservableInput<void>
  close?(): void
}

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

/**
 * Anything that can hand its unstored events to the store before a flush; `detached` once
 * `dispose()` closed the store, which is then not asked to flush again.
 */
type HandsOver = { handOver(): void; readonly detached?: boolean }

/**
 * Starts a flush now, after handing the store what it missed: `undefined` when the store had
 * nothing to wait for (`alreadyFlushed`), else what is left to wait for. Throws what the hand-over
 * or the store's `flush()` threw.
 */
export const startFlush = (transcript: HandsOver, store: SessionStore): Observable<void> | undefined => {
  transcript.handOver()
  if (transcript.detached) return undefined
  const pending = store.flush()
  return pending === alreadyFlushed ? undefined : from(pending ?? of(undefined))
}

/**
 * Flushes a store after handing it what it missed: errors when the store cannot take or write
 * the events (so `session.flush()` rejects while writing is impossible, R40).
 */
export const flushTranscript = (transcript: HandsOver, store: SessionStore): Observable<void> =>
  defer(() => startFlush(transcript, store) ?? alreadyFlushed)
