import { asyncScheduler, defer, Observable, retry, type SchedulerLike, throwError, timer } from 'rxjs'
import { type InputIssue, InvalidInputError } from '../contracts/errors.js'
import { EventSourceGaveUpError, EventSourceMissingError } from './errors.js'

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
   * Failed connections in a row to retry before the Observable errors with
   * `EventSourceGaveUpError`; default {@link DEFAULT_MAX_RETRIES}, `Infinity` never gives up. A
   * connection that opens and ends without delivering an event is a failed one.
   */
  readonly maxRetries?: number
  /**
   * The `EventSource` constructor; default `globalThis.EventSource`. On Node 20, which has none,
   * pass the `eventsource` npm package's `EventSource`.
   */
  readonly eventSource?: new (
    url: string,
  ) => EventSourceLike
  /** Where the wait of `retryDelay` is scheduled; default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike
}

/**
 * The default of `maxRetries`: at the default `retryDelay`, a server that stays unreachable for
 * about ten seconds ends the stream, long enough to ride out a restart, short enough that a page
 * says the server is gone instead of retrying in silence.
 */
export const DEFAULT_MAX_RETRIES = 10

const CALL = 'fromEventSource()'
const CLOSED = 2

/**
 * The events of a server-sent event stream as an Observable that reconnects: a dropped
 * connection is closed and opened again after `retryDelay`. The count of failures toward
 * `maxRetries` starts again after each event received, not after `open`: a server that accepts
 * each connection and drops it at once still fails. Each connection first emits `{type: 'open'}`,
 * so a consumer can start from the snapshot a server sends on connect. Unsubscribing closes the
 * connection.
 *
 * 1. Bad options throw `InvalidInputError` at call time.
 * 2. With no `EventSource` to connect with, the stream errors at once with `EventSourceMissingError`.
 * 3. After `maxRetries` failed reconnections in a row it errors with `EventSourceGaveUpError`,
 *    naming the attempts and the last failure (its `cause`).
 *
 * @example
 * fromEventSource('/events', { events: ['snapshot', 'entry'] }).subscribe((e) => console.log(e.type, e.data))
 */
export const fromEventSource = <T = unknown>(
  url: string,
  options: FromEventSourceOptions = {},
): Observable<ServerEvent<T>> => {
  const issues = optionIssues(url, options)
  if (issues.length > 0) throw new InvalidInputError(CALL, issues)
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES
  const retryDelay = options.retryDelay ?? 1000
  const scheduler = options.scheduler ?? asyncScheduler
  return defer(() => {
    const Source =
      options.eventSource ??
      (globalThis as { EventSource?: FromEventSourceOptions['eventSource'] }).EventSource
    if (!Source) return throwError(() => new EventSourceMissingError(CALL))
    // Counted here, not by retry's resetOnSuccess: that would count `open` as a success.
    let failures = 0
    const delivered = () => {
      failures = 0
    }
    return connect<T>(url, Source, options.events ?? ['message'], delivered).pipe(
      retry({
        delay: (error: unknown) => {
          if (fatal.has(error as object)) return throwError(() => error)
          failures++
          return failures > maxRetries
            ? throwError(() => new EventSourceGaveUpError(CALL, url, failures, error))
            : timer(retryDelay, scheduler)
        },
      }),
    )
  })
}

/** One connection; `delivered` is called on each event received (not on `open`). */
const connect = <T>(
  url: string,
  Source: NonNullable<FromEventSourceOptions['eventSource']>,
  events: readonly string[],
  delivered: () => void,
) =>
  new Observable<ServerEvent<T>>((subscriber) => {
    let source: EventSourceLike
    try {
      source = new Source(url)
    } catch (error) {
      // A URL the EventSource refuses is refused again on every retry.
      subscriber.error(notRetried(new TypeError(`${CALL}: cannot open ${url}`, { cause: error })))
      return
    }
    source.addEventListener('open', () =>
      subscriber.next({ type: 'open', data: undefined as T, lastEventId: '' }),
    )
    for (const type of events) {
      source.addEventListener(type, (event) => {
        delivered()
        subscriber.next({ type, data: parse(event.data) as T, lastEventId: event.lastEventId ?? '' })
      })
    }
    // The browser retries on its own while CONNECTING; closing and retrying here makes the delay
    // and the limit ours, and gives every connection its `open` event.
    source.addEventListener('error', () => {
      const state = source.readyState === CLOSED ? 'closed' : 'reconnecting'
      source.close()
      subscriber.error(new Error(`${CALL}: the connection to ${url} dropped (state ${state})`))
    })
    return () => source.close()
  })

const optionIssues = (url: unknown, options: FromEventSourceOptions): InputIssue[] => {
  const issues: InputIssue[] = []
  const bad = (path: string[], message: string) => issues.push({ path, message })
  if (typeof url !== 'string') bad(['url'], 'expected the URL of the event stream as a string')
  const { maxRetries, retryDelay, events, eventSource } = options
  if (maxRetries !== undefined && !(maxRetries === Number.POSITIVE_INFINITY || isCount(maxRetries)))
    bad(['options', 'maxRetries'], `expected a whole number ≥ 0 or Infinity, got ${maxRetries}`)
  if (retryDelay !== undefined && !(Number.isFinite(retryDelay) && retryDelay >= 0))
    bad(['options', 'retryDelay'], `expected milliseconds ≥ 0, got ${retryDelay}`)
  if (events !== undefined && !(Array.isArray(events) && events.every((e) => typeof e === 'string')))
    bad(['options', 'events'], 'expected an array of event names')
  if (eventSource !== undefined && typeof eventSource !== 'function')
    bad(['options', 'eventSource'], 'expected an EventSource constructor')
  return issues
}

const isCount = (n: number) => Number.isInteger(n) && n >= 0

/** Errors no retry can mend: they end the stream at once. */
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
