import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider'
import { Observable } from 'rxjs'
import type { LanguageModel } from './options.js'

export type StreamInit = {
  readonly model: LanguageModel
  readonly options: Omit<LanguageModelV3CallOptions, 'abortSignal'>
  /** The request's signal: its abort fails the stream with `signal.reason`. */
  readonly signal: AbortSignal
  /** The error for what `doStream` threw or rejected with. */
  readonly callError: (error: unknown) => unknown
  /** The error for a stream that broke while it was read. */
  readonly readError: (error: unknown) => unknown
  /** The error for a value of the provider that threw when read; `what` names it. */
  readonly unreadable: (what: string, thrown: unknown) => unknown
}

/**
 * What the call has delivered so far: `response` once `doStream` resolved with a stream (the
 * provider's answer has begun), then each part of the stream. Every item is a sign of life, so a
 * timeout between items measures the provider's silence.
 */
export type StreamItem = { readonly type: 'response' } | { readonly type: 'part'; readonly part: unknown }

/** The reader of a provider's stream, as far as this adapter uses it. */
type Reader = { readonly read: () => PromiseLike<unknown>; readonly cancel: () => unknown }

const response: StreamItem = { type: 'response' }

/**
 * Calls `model.doStream` and emits `response`, then the parts of its stream as they are read,
 * completing when the stream ends. This is the I/O edge, so it is the one place that touches
 * Promises: `doStream` and the stream's reader, with plain `.then` callbacks that feed the
 * subscriber.
 *
 * 1. The provider gets an abort signal of the adapter's own, aborted when the request's signal
 *    aborts (with its reason) and on unsubscribe, so the provider closes its connection both when
 *    the turn is cancelled and when the consumer is done (after `finish`, at an error part, or
 *    when a timeout fired).
 * 2. An abort of `signal` errors with `signal.reason` at once (the loop expects exactly that after
 *    a cancel), and so does any failure after it. An already-aborted signal calls nothing.
 * 3. A throw or rejection of `doStream` errors with `callError`, a reader that fails with
 *    `readError`. A result, a reader or a read result that throws when read (a getter, a Proxy)
 *    errors with `unreadable`. A provider may throw anything: a callback of ours that throws
 *    surfaces as the stream's error, never as an unhandled rejection.
 * 4. Unsubscribing cancels the reader; a stream that arrives after it is cancelled unread.
 */
export const streamParts = (init: StreamInit): Observable<StreamItem> =>
  new Observable<StreamItem>((subscriber) => {
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
    const unreadable = (what: string) => fail((thrown) => init.unreadable(what, thrown))
    const settle = <T>(promise: PromiseLike<T>, ok: (value: T) => void, ko: (error: unknown) => void) => {
      Promise.resolve(promise)
        .then(ok, ko)
        .catch((error: unknown) => subscriber.error(error))
    }
    let reader: Reader | undefined

    const read = (from: Reader): void => {
      let next: PromiseLike<unknown>
      try {
        next = from.read()
      } catch (thrown) {
        return unreadable('a read of the stream')(thrown)
      }
      settle(
        next,
        (result) => {
          if (subscriber.closed) return
          let done: unknown
          let value: unknown
          try {
            ;({ done, value } = result as ReadableStreamReadResult<unknown>)
          } catch (thrown) {
            return unreadable('a read of the stream')(thrown)
          }
          if (done) return subscriber.complete()
          subscriber.next({ type: 'part', part: value })
          if (!subscriber.closed) read(from)
        },
        fail(init.readError),
      )
    }

    const open = (result: unknown): void => {
      let opened: Reader
      try {
        const stream = (result as { stream?: ReadableStream<unknown> } | undefined)?.stream
        if (typeof stream?.getReader !== 'function')
          return fail(init.callError)(new TypeError('doStream resolved without a readable stream'))
        if (subscriber.closed) return cancelQuietly(stream)
        opened = stream.getReader()
      } catch (thrown) {
        return unreadable('the result of doStream')(thrown)
      }
      reader = opened
      subscriber.next(response)
      if (!subscriber.closed) read(opened)
    }

    try {
      // The parts of the prompt and the stream that this adapter uses are the same in versions 3
      // and 4 of the interface, so one call serves both.
      const call = (init.model as LanguageModelV3).doStream({
        ...init.options,
        abortSignal: controller.signal,
      })
      settle(call, open, fail(init.callError))
    } catch (error) {
      // A provider that throws instead of rejecting.
      fail(init.callError)(error)
    }
    return () => {
      signal.removeEventListener('abort', onAbort)
      if (reader) cancelQuietly(reader)
      controller.abort()
    }
  })

/**
 * Cancels a stream or a reader and ignores how that goes: a provider's `cancel` may reject or
 * throw, and the abort of the call's signal closes its connection anyway.
 */
const cancelQuietly = (target: { readonly cancel: () => unknown }): void => {
  try {
    Promise.resolve(target.cancel()).catch(() => {})
  } catch {
    // Nothing to do: see above.
  }
}
