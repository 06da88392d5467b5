/** Marks every copy of the class, so that `instanceof` holds across bundles (see below). */
const brand = Symbol.for('steerable.ModelRequestError')

/**
 * A failed model request, from either adapter: `steerable/openai` (a non-2xx answer, a network
 * failure, a connection dropped mid-stream, a `200` that is not an event stream, a stream it cannot
 * read) or `steerable/ai-sdk` (a provider's `APICallError`, an `error` part of its stream, a stream
 * that broke or ended unfinished, a provider value that throws when read), or in both a wait that
 * ran out (`headersTimeoutMs`, `idleTimeoutMs`). The loop treats it as a request failure (R24), so a
 * `requestError` hook can inspect `status` and `retryAfterMs` and call `agent.retry()`. Its message
 * says whether retrying may help. No field quotes the API key or a credential header: what the
 * server echoed is redacted.
 *
 * Each entry point of the package is bundled on its own, so `steerable/openai` and
 * `steerable/ai-sdk` (and the ESM and CommonJS builds) hold separate copies of this class;
 * `instanceof` recognises an error made by any of them.
 */
export class ModelRequestError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    // A subclass keeps the ordinary prototype check: `this` is the class on the right of instanceof.
    // biome-ignore lint/complexity/noThisInStatic: which class is asked is exactly the question
    if (this !== ModelRequestError) return Function.prototype[Symbol.hasInstance].call(this, value)
    try {
      return typeof value === 'object' && value !== null && (value as { [brand]?: unknown })[brand] === true
    } catch {
      return false // a revoked Proxy
    }
  }

  override readonly name = 'ModelRequestError'
  /**
   * The HTTP status; `undefined` when no answer arrived or the stream broke after a 2xx. A 2xx
   * status means the answer was not an event stream: retrying gets the same answer.
   */
  readonly status: number | undefined
  /** How long the server asked us to wait (`retry-after-ms`, else `retry-after`), in milliseconds. */
  readonly retryAfterMs: number | undefined
  /**
   * The start of the response body of a non-2xx answer, or of a 2xx that was not an event stream,
   * for logs: at most 500 characters and a note of the bytes cut, credentials redacted.
   */
  readonly body: string | undefined
  /**
   * Whether making the request again may help (R108, R117): true for no answer, a dropped
   * connection, a wait that ran out, and the statuses 408, 409, 429 and 5xx; false otherwise (a
   * request the server refused, an answer that was not an event stream, a stream it could not
   * read). The agent retries a request whose error says so (`maxRetries`).
   */
  readonly retryable: boolean

  constructor(
    message: string,
    details: {
      readonly status?: number | undefined
      readonly retryAfterMs?: number | undefined
      readonly body?: string | undefined
      readonly cause?: unknown
      /** Default: from `status` (408, 409, 429 and 5xx); a request with no status is not retryable. */
      readonly retryable?: boolean | undefined
    } = {},
  ) {
    super(message, 'cause' in details ? { cause: details.cause } : undefined)
    this.status = details.status
    this.retryAfterMs = details.retryAfterMs
    this.body = details.body
    this.retryable = details.retryable ?? retryableStatus(details.status)
    Object.defineProperty(this, brand, { value: true })
  }
}

/** The statuses where a later try may get an answer (R108): timeout, conflict, rate limit, 5xx. */
const retryableStatus = (status: number | undefined): boolean =>
  status !== undefined &&
  (status === 408 || status === 409 || status === 429 || (status >= 500 && status < 600))
