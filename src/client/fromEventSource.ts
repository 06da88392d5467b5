import { Observable, retry, timer } from 'rxjs'

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
  /** Consecutive failed connections before the Observable errors; default: never gives up. */
  readonly maxRetries?: number
  /** The `EventSource` constructor; default `globalThis.EventSource`. */
  readonly EventSource?: new (
    url: string,
  ) => EventSourceLike
}

const CLOSED = 2

/**
 * The events of a server-sent event stream as an Observable that reconnects: a dropped
 * connection is closed and opened again after `retryDelay` (the count of failures starts again
 * after each event received). Each connection first emits `{type: 'open'}`, so a consumer can
 * start from the snapshot a server sends on connect. Unsubscribing closes the connection.
 *
 * @example
 * fromEventSource('/events', { events: ['snapshot', 'entry'] }).subscribe((e) => console.log(e.type, e.data))
 */
export const fromEventSource = <T = unknown>(
  url: string,
  options: FromEventSourceOptions = {},
): Observable<ServerEvent<T>> => {
  const connect = new Observable<ServerEvent<T>>((subscriber) => {
    const Source =
      options.EventSource ??
      (globalThis as { EventSource?: FromEventSourceOptions['EventSource'] }).EventSource
    if (!Source) {
      subscriber.error(new TypeError('fromEventSource: no EventSource here; pass options.EventSource'))
      return
    }
    const source = new Source(url)
    source.addEventListener('open', () =>
      subscriber.next({ type: 'open', data: undefined as T, lastEventId: '' }),
    )
    for (const type of options.events ?? ['message']) {
      source.addEventListener(type, (event) =>
        subscriber.next({ type, data: parse(event.data) as T, lastEventId: event.lastEventId ?? '' }),
      )
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
  return connect.pipe(
    retry({
      ...(options.maxRetries === undefined ? {} : { count: options.maxRetries }),
      delay: () => timer(options.retryDelay ?? 1000),
      resetOnSuccess: true,
    }),
  )
}

const parse = (data: unknown): unknown => {
  if (typeof data !== 'string') return data
  try {
    return JSON.parse(data)
  } catch {
    return data
  }
}
