import { defer, from, type Observable, of } from 'rxjs'
import type { SessionStore } from '../contracts/store.js'
import { alreadyFlushed } from './memoryStore.js'

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
