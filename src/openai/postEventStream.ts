import { createParser } from 'eventsource-parser'
import { Observable } from 'rxjs'
import { type ErrorContext, httpError, networkError, notEventStreamError } from './httpError.js'
import { ModelRequestError } from './ModelRequestError.js'
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

/** How much of an error body is read: enough for any JSON error, bounded whatever the server sends. */
const errorBodyLimit = 64 * 1024
/** How much of a 2xx body that is not an event stream is kept to show what it was. */
const bodyStartBytes = 4 * 1024
const bodyStartChars = 1024

const isEventStream = (contentType: string): boolean =>
  contentType.split(';')[0]?.trim().toLowerCase() === 'text/event-stream'

const encoder = new TextEncoder()
const byteLength = (text: string): number => encoder.encode(text).length

/**
 * POSTs a JSON body and emits the `data` of every server-sent event of a 2xx answer, completing
 * when the body ends. This is the I/O edge, so it is the one place that touches Promises: `fetch`
 * and the body reader, with plain `.then` callbacks that feed the subscriber.
 *
 * 1. The fetch gets its own AbortController, aborted on unsubscribe (the consumer is done, for
 *    example after `[DONE]`), so the connection closes.
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
export const postEventStream = (init: PostInit): Observable<string> =>
  new Observable<string>((subscriber) => {
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
    // Whether the body has shown anything of an event stream yet, and how it started, so that a
    // body without a content-type that holds no event at all can be reported for what it is.
    let streamSeen = false
    let start = ''
    let bytes = 0
    const seen = () => {
      streamSeen = true
    }
    const parser = createParser({
      onEvent: (event) => {
        streamSeen = true
        subscriber.next(event.data)
      },
      onComment: seen,
      onRetry: seen,
      onId: seen,
    })
    const decoder = new TextDecoder()
    const feed = (text: string) => {
      if (start.length < bodyStartChars) start += text.slice(0, bodyStartChars - start.length)
      parser.feed(text)
    }

    const read = (response: Response, reader: ReadableStreamDefaultReader<Uint8Array>): void =>
      settle(
        reader.read(),
        (result) => {
          if (subscriber.closed) return
          if (result.done) {
            feed(decoder.decode())
            if (streamSeen || start.trim() === '') return subscriber.complete()
            const rest = { bytes: bytes - byteLength(start), exact: true }
            return subscriber.error(notEventStreamError(context, response, { text: start, rest }))
          }
          bytes += result.value.length
          feed(decoder.decode(result.value, { stream: true }))
          if (!subscriber.closed) read(response, reader)
        },
        (error) => subscriber.error(networkError(context, error, true)),
      )

    const onResponse = (response: Response): void => {
      if (!response.ok) {
        const fail = (start: BodyStart) => subscriber.error(httpError(context, response, start, Date.now()))
        return settle(readBodyStart(response, errorBodyLimit), fail, () =>
          fail({ text: '', rest: { bytes: 0, exact: false } }),
        )
      }
      if (!response.body) {
        subscriber.error(
          new ModelRequestError(`openaiModel: POST ${context.url} answered ${response.status} with no body`),
        )
        return
      }
      const type = response.headers.get('content-type')
      // A missing content-type is read as an event stream: some proxies drop the header.
      if (type !== null && !isEventStream(type)) {
        const fail = (start: BodyStart) => subscriber.error(notEventStreamError(context, response, start))
        return settle(readBodyStart(response, bodyStartBytes), fail, () =>
          fail({ text: '', rest: { bytes: 0, exact: false } }),
        )
      }
      read(response, response.body.getReader())
    }

    try {
      const request = { method: 'POST', headers: init.headers, body: init.body, signal: controller.signal }
      settle(init.fetch(init.url, request), onResponse, (error) =>
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
