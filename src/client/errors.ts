/**
 * The errors `fromEventSource` ends its stream with. They live with the client so that
 * `steerable/client` stays a small bundle for pages.
 */

/**
 * There is no `EventSource` to connect with: no global one (Node 20 has none; Node 22 and later
 * and browsers do) and no `eventSource` option. No retry can mend this, so the stream errors at
 * once.
 */
export class EventSourceMissingError extends Error {
  override readonly name = 'EventSourceMissingError'
  constructor(call: string) {
    super(
      `${call}: there is no global EventSource here (Node 20 has none) and no eventSource option; ` +
        "pass one, for example `npm i eventsource`, then `import { EventSource } from 'eventsource'` " +
        'and fromEventSource(url, { eventSource: EventSource })',
    )
  }
}

/**
 * `maxRetries` reconnections in a row failed, so the stream gave up (a connection that opens and
 * ends without an event is a failed one). `attempts` is the number of failed connections in a row,
 * `cause` the error of the last.
 */
export class EventSourceGaveUpError extends Error {
  override readonly name = 'EventSourceGaveUpError'
  readonly url: string
  readonly attempts: number
  constructor(call: string, url: string, attempts: number, cause: unknown) {
    super(
      `${call}: gave up on ${url} after ${attempts} failed connection${attempts === 1 ? '' : 's'} in a row ` +
        `(the last: ${cause instanceof Error ? cause.message : String(cause)}); check that the server is up, ` +
        'or raise the maxRetries option',
      { cause },
    )
    this.url = url
    this.attempts = attempts
  }
}
