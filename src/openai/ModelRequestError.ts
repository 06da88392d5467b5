/**
 * A failed request to an OpenAI-compatible server: a non-2xx answer, a network failure, a
 * connection dropped mid-stream or a stream the adapter cannot read. The loop treats it as a
 * request failure (R24), so a `requestError` hook can inspect `status` and `retryAfterMs` and call
 * `agent.retry()`.
 */
export class ModelRequestError extends Error {
  override readonly name = 'ModelRequestError'
  /** The HTTP status; `undefined` when no answer arrived or the stream broke after a 2xx. */
  readonly status: number | undefined
  /** How long the server asked us to wait (`retry-after-ms`, else `retry-after`), in milliseconds. */
  readonly retryAfterMs: number | undefined
  /** The raw response body of a non-2xx answer (truncated), for logs. */
  readonly body: string | undefined

  constructor(
    message: string,
    details: {
      readonly status?: number | undefined
      readonly retryAfterMs?: number | undefined
      readonly body?: string | undefined
      readonly cause?: unknown
    } = {},
  ) {
    super(message, 'cause' in details ? { cause: details.cause } : undefined)
    this.status = details.status
    this.retryAfterMs = details.retryAfterMs
    this.body = details.body
  }
}
