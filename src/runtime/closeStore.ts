import { catchError, concat, defer, EMPTY, ignoreElements, type Observable, of, throwError } from 'rxjs'
import type { SessionStore } from '../contracts/store.js'
import type { Signal } from '../machine/inputs.js'
import { flushTranscript } from '../session/flush.js'
import type { Transcript } from '../session/transcript.js'

/** How many times `dispose()` flushes again for events that arrived during its final flush. */
export const FINAL_FLUSH_ROUNDS = 8

/**
 * The last step of `dispose()` (R29): the final flush, `close()`, then `dispose/closed`. A failing
 * flush or close becomes `store/failed` (an `agent/error`, R40) and the step goes on. The
 * transcript is detached from the store before `close()`: what is appended after it (from a
 * subscriber of that `agent/error`) stays in memory and never reaches a closed store.
 *
 * The flush runs again while events were appended during the one before (an inject accepted
 * while an asynchronous flush was in flight): `close()` then follows a flush that saw every
 * event, whatever the store's `close` does with what it still buffers. At most
 * `FINAL_FLUSH_ROUNDS` rounds, so injects that never stop cannot hold `dispose()` forever: past
 * them the store is closed with the newest events handed over but not flushed, and an
 * `agent/error` says so.
 */
export const closeStore = (transcript: Transcript, store: SessionStore): Observable<Signal> =>
  defer(() => {
    let flushFailure: { readonly error: unknown } | undefined
    return concat(
      finalFlush(transcript, store, FINAL_FLUSH_ROUNDS).pipe(
        catchError((error: unknown) => {
          flushFailure = { error }
          return storeFailed(error)
        }),
      ),
      defer(() => {
        transcript.detach(flushFailure)
        store.close?.()
        return EMPTY
      }).pipe(catchError(storeFailed)),
      of<Signal>({ type: 'dispose/closed' }),
    )
  })

const storeFailed = (error: unknown): Observable<Signal> => of({ type: 'store/failed', error })

const finalFlush = (transcript: Transcript, store: SessionStore, rounds: number): Observable<never> =>
  defer(() => {
    const size = transcript.size
    return concat(
      flushTranscript(transcript, store).pipe(ignoreElements()),
      defer(() => {
        const late = transcript.size - size
        if (late === 0) return EMPTY
        if (rounds > 1) return finalFlush(transcript, store, rounds - 1)
        return throwError(
          () =>
            new Error(
              `dispose(): events kept arriving during the final flush; after ${FINAL_FLUSH_ROUNDS} ` +
                `flushes the store was closed with the last ${late} handed over but not flushed`,
            ),
        )
      }),
    )
  })
