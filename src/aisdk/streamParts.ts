import type { LanguageModelV4, LanguageModelV4CallOptions } from '@ai-sdk/provider'
import { Observable } from 'rxjs'
import type { LanguageModel } from './options.js'

export type StreamInit = {
  readonly model: LanguageModel
  readonly options: Omit<LanguageModelV4CallOptions, 'abortSignal'>
  /** The request's signal: its abort fails the stream with `signal.reason`. */
  readonly signal: AbortSignal
  /** The error for what `doStream` threw or rejected with. */
  readonly callError: (error: unknown) => unknown
  /** The error for a stream that broke while it was read. */
  readonly readError: (error: unknown) => unknown
}

/**
 * Calls `model.doStream` and emits the parts of its stream as they are read, completing when the
 * stream ends. This is the I/O edge, so it is the one place that touches Promises: `doStream` and
 * the stream's reader, with plain `.then` callbacks that feed the subscriber.
 *
 * 1. The provider gets an abort signal of the adapter's own, aborted when the request's signal
 *    aborts (with its reason) and on unsubscribe, so the provider closes its connection both when
 *    the turn is cancelled and when the consumer is done (after `finish`, or at an error part).
 * 2. An abort of `signal` errors with `signal.reason` at once (the loop expects exactly that after
 *    a cancel), and so does any failure after it. An already-aborted signal calls nothing.
 * 3. A throw or rejection of `doStream` errors with `callError`, a reader that fails with
 *    `readError`. A provider may throw anything: a callback of ours that throws surfaces as the
 *    stream's error, never as an unhandled rejection.
 * 4. Unsubscribing cancels the reader; a stream that arrives after it is cancelled unread.
 */
export const streamParts = (init: StreamInit): Observable<unknown> =>
  new Observable<unknown>((subscriber) => {
    const { signal } = init
    if (signal.aborted) {
      subscriber.error(signal.reason)
      return
    }
    const controller = new AbortController()
    const onAbort = () => {
      controller.abort(signal.reason)
      subscriber.error(signal.reason)
    }
    signal.addEventListener('abort', onAbort, { once: true })
    const fail = (toError: (error: unknown) => unknown) => (error: unknown) =>
      subscriber.error(signal.aborted ? signal.reason : toError(error))
    const settle = <T>(promise: PromiseLike<T>, ok: (value: T) => void, ko: (error: unknown) => void) => {
      Promise.resolve(promise)
        .then(ok, ko)
        .catch((error: unknown) => subscriber.error(error))
    }
    let reader: ReadableStreamDefaultReader<unknown> | undefined

    const read = (from: ReadableStreamDefaultReader<unknown>): void =>
      settle(
        from.read(),
        (result) => {
          if (subscriber.closed) return
          if (result.done) return subscriber.complete()
          subscriber.next(result.value)
          if (!subscriber.closed) read(from)
        },
        fail(init.readError),
      )

    try {
      // The parts of the prompt and the stream that this adapter uses are the same in versions 3
      // and 4 of the interface, so one call serves both.
      const call = (init.model as LanguageModelV4).doStream({
        ...init.options,
        abortSignal: controller.signal,
      })
      settle(
        call,
        (result) => {
          const stream = (result as { stream?: ReadableStream<unknown> } | undefined)?.stream
          if (typeof stream?.getReader !== 'function')
            return fail(init.callError)(new TypeError('doStream resolved without a readable stream'))
          if (subscriber.closed) {
            stream.cancel().catch(() => {})
            return
          }
          reader = stream.getReader()
          read(reader)
        },
        fail(init.callError),
      )
    } catch (error) {
      // A provider that throws instead of rejecting.
      fail(init.callError)(error)
    }
    return () => {
      signal.removeEventListener('abort', onAbort)
      reader?.cancel().catch(() => {})
      controller.abort()
    }
  })
