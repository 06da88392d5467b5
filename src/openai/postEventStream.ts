import { Observable } from 'rxjs'
import { ModelRequestError } from '../adapterKit/ModelRequestError.js'
import { eventStreamBody } from './eventStreamBody.js'
import { type ErrorContext, httpError, networkError, notEventStreamError } from './httpError.js'
import { type BodyStart, readBodyStart } from './readBodyStart.js'

export type PostInit = {
  readonly fetch: typeof fetch
  readonly url: string
  /** The URL as errors show it, and the secrets they never quote. */
  readonly context: ErrorContext
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  /** The request's signal: its abort fails the stream with `signal.reason`. */
  readonly signal: AbortSignal
}

/**
 * What the answer has delivered so far: its headers, then one `events` part per body chunk read
 * (with the `data` of the server-sent events that chunk completed, often none). Every part is a
 * sign of life, so a timeout between parts measures the server's silence, not the events' pace.
 */
export type StreamPart =
  | { readonly type: 'headers' }
  | { readonly type: 'events'; readonly data: readonly string[] }

/** How much of an error body is read: enough for any JSON error, bounded whatever the server sends. */
const errorBodyLimit = 64 * 1024
/** How much of a 2xx body that is not an event stream is read to show what it was. */
const bodyStartBytes = 4 * 1024

const isEventStream = (contentType: string): boolean =>
  contentType.split(';')[0]?.trim().toLowerCase() === 'text/event-stream'

const headers: StreamPart = { type: 'headers' }
const unread: BodyStart = { text: '', rest: { bytes: 0, exact: false } }

/**
 * POSTs a JSON body and emits `headers` when the answer's headers arrive, then the events of a 2xx
 * answer chunk by chunk, completing when the body ends. This is the I/O edge, so it is the one
 * place that touches Promises: `fetch` and the body reader, with plain `.then` callbacks that feed
 * the subscriber.
 *
 * 1. The fetch gets its own AbortController, aborted on unsubscribe (the consumer is done, for
 *    example after `[DONE]`, or a timeout fired), so the connection closes.
 * 2. An abort of `signal` errors with `signal.reason` at once (the loop expects exactly that after
 *    a cancel); the teardown then aborts the fetch. An already-aborted signal sends nothing.
 * 3. A non-2xx answer errors with `ModelRequestError` (status, retry-after, the server's message)
 *    once the first 64 KiB of its body are read (the rest is cancelled, never kept whole);
 *    a network failure or a body that breaks while read errors with one whose `status` is
 *    `undefined`.
 * 4. A 2xx answer whose content-type is not `text/event-stream` errors with `ModelRequestError`
 *    (that status, the start of the body) without reading the rest; one without a content-type is
 *    read as an event stream, and errors the same way if its body ends without any sign of one.
 */
export const postEventStream = (init: PostInit): Observable<StreamPart> =>
  new Observable<StreamPart>((subscriber) => {
    const { signal, context } = init
    if (signal.aborted) {
      subscriber.error(signal.reason)
      return
    }
    const controller = new AbortController()
    const onAbort = () => subscriber.error(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    // A callback that throws is a bug of ours: it surfaces as the stream's error, never as an
    // unhandled rejection.
    const settle = <T>(promise: Promise<T>, ok: (value: T) => void, ko: (error: unknown) => void) => {
      promise.then(ok, ko).catch((error: unknown) => subscriber.error(error))
    }
    const body = eventStreamBody()

    const read = (response: Response, reader: ReadableStreamDefaultReader<Uint8Array>): void =>
      settle(
        reader.read(),
        (result) => {
          if (subscriber.closed) return
          let data: readonly string[]
          try {
            data = body.feed(result.done ? undefined : result.value)
          } catch (error) {
            reader.cancel().catch(() => {})
            return subscriber.error(error)
          }
          if (data.length > 0 || !result.done) subscriber.next({ type: 'events', data })
          if (!result.done) return subscriber.closed ? undefined : read(response, reader)
          const start = body.notAStream()
          if (start) return subscriber.error(notEventStreamError(context, response, start))
          subscriber.complete()
        },
        (error) => subscriber.error(networkError(context, error, true)),
      )

    /** Reads the start of a body that is not the stream asked for, then fails with `toError`. */
    const failWithStart = (response: Response, limit: number, toError: (start: BodyStart) => unknown) => {
      const fail = (start: BodyStart) => subscriber.error(toError(start))
      settle(readBodyStart(response, limit), fail, () => fail(unread))
    }

    const onResponse = (response: Response): void => {
      subscriber.next(headers)
      if (subscriber.closed) return
      if (!response.ok)
        return failWithStart(response, errorBodyLimit, (start) =>
          httpError(context, response, start, Date.now()),
        )
      if (!response.body) {
        subscriber.error(
          new ModelRequestError(`openaiModel: POST ${context.url} answered ${response.status} with no body`),
        )
        return
      }
      const type = response.headers.get('content-type')
      // A missing content-type is read as an event stream: some proxies drop the header.
      if (type !== null && !isEventStream(type))
        return failWithStart(response, bodyStartBytes, (start) =>
          notEventStreamError(context, response, start),
        )
      read(response, response.body.getReader())
    }

    try {
      const request = { method: 'POST', headers: init.headers, body: init.body, signal: controller.signal }
      // Called as a plain function: a browser's fetch called as a method of another object
      // (`init.fetch(…)`) throws "Illegal invocation".
      const send = init.fetch
      settle(send(init.url, request), onResponse, (error) =>
        subscriber.error(networkError(context, error, false)),
      )
    } catch (error) {
      // A custom fetch that throws instead of rejecting.
      subscriber.error(networkError(context, error, false))
    }
    return () => {
      signal.removeEventListener('abort', onAbort)
      controller.abort()
    }
  })
