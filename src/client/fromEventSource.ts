import { defer, Observable, retry, throwError, timer } from 'rxjs'

/** The part of the browser's `EventSource` this client uses (Node 22+ and polyfills have it too). */
export type EventSourceLike = {
  readonly readyState: number
  addEventListener(type: string, listener: (event: { data?: unknown; lastEventId?: string }) => void): void
  close(): void
}

/** One server-sent event, its `data` parsed as JSON (kept as a string when it is not JSON). */
export type ServerEvent<T = unknown> = {
  readonly type: string
  readonly data: T
  readonly lastEventId: string
}

export type FromEventSourceOptions = {
  /** The event names to emit (`event:` lines); default `['message']`. */
  readonly events?: readonly string[]
  /** Milliseconds before reconnecting after the connection drops; default 1000. */
  readonly retryDelay?: number
  /**
   * Reconnections after failed connections in a row before the Observable errors; default: never
   * gives up. A connection that opens and ends without delivering an event is a failed one.
   */
  readonly maxRetries?: number
  /** The `EventSource` constructor; default `globalThis.EventSource`. */
  readonly EventSource?: new (
    url: string,
  ) => EventSourceLike
}

const CLOSED = 2

/**
 * The events of a server-sent event stream as an Observable that reconnects: a dropped
 * connection is closed and opened again after `retryDelay`. The count of failures toward
 * `maxRetries` starts again after each event received, not after `open`: a server that accepts
 * each connection and drops it at once still fails. Each connection first emits `{type: 'open'}`,
 * so a consumer can start from the snapshot a server sends on connect. Unsubscribing closes the
 * connection.
 *
 * @example
 * fromEventSource('/events', { events: ['snapshot', 'entry'] }).subscribe((e) => console.log(e.type, e.data))
 */
export const fromEventSource = <T = unknown>(
  url: string,
  options: FromEventSourceOptions = {},
): Observable<ServerEvent<T>> => {
  const { maxRetries, retryDelay } = options
  if (maxRetries !== undefined && !(Number.isInteger(maxRetries) && maxRetries >= 0))
    throw new TypeError(`fromEventSource: options.maxRetries must be a whole number ≥ 0, got ${maxRetries}`)
  if (retryDelay !== undefined && !(Number.isFinite(retryDelay) && retryDelay >= 0))
    throw new TypeError(`fromEventSource: options.retryDelay must be milliseconds ≥ 0, got ${retryDelay}`)
  /** `delivered` is called on each event received (not on `open`). */
  const connect = (delivered: () => void) =>
    new Observable<ServerEvent<T>>((subscriber) => {
      const Source =
        options.EventSource ??
        (globalThis as { EventSource?: FromEventSourceOptions['EventSource'] }).EventSource
      if (!Source) {
        subscriber.error(
          notRetried(new TypeError('fromEventSource: no EventSource here; pass options.EventSource')),
        )
        return
      }
      let source: EventSourceLike
      try {
        source = new Source(url)
      } catch (error) {
        // A URL the EventSource refuses is refused again on every retry.
        subscriber.error(notRetried(new TypeError(`fromEventSource: cannot open ${url}`, { cause: error })))
        return
      }
      source.addEventListener('open', () =>
        subscriber.next({ type: 'open', data: undefined as T, lastEventId: '' }),
      )
      for (const type of options.events ?? ['message']) {
        source.addEventListener(type, (event) => {
          delivered()
          subscriber.next({ type, data: parse(event.data) as T, lastEventId: event.lastEventId ?? '' })
        })
      }
      // The browser retries on its own while CONNECTING; closing and retrying here makes the delay
      // and the limit ours, and gives every connection its `open` event.
      source.addEventListener('error', () => {
        source.close()
        subscriber.error(
          new Error(
            `fromEventSource: the connection to ${url} dropped (state ${source.readyState === CLOSED ? 'closed' : 'reconnecting'})`,
          ),
        )
      })
      return () => source.close()
    })
  return defer(() => {
    // Counted here, not by retry's resetOnSuccess: that would count `open` as a success.
    let failures = 0
    return connect(() => {
      failures = 0
    }).pipe(
      retry({
        delay: (error: unknown) =>
          fatal.has(error as object) || ++failures > (maxRetries ?? Number.POSITIVE_INFINITY)
            ? throwError(() => error)
            : timer(retryDelay ?? 1000),
      }),
    )
  })
}

/** Errors no retry can mend (nothing to connect with): they end the stream at once. */
const fatal = new WeakSet<object>()
const notRetried = (error: Error): Error => {
  fatal.add(error)
  return error
}

const parse = (data: unknown): unknown => {
  if (typeof data !== 'string') return data
  try {
    return JSON.parse(data)
  } catch {
    return data
  }
}
