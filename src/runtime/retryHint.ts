import type { RetryHint, Signal } from '../machine/inputs.js'

/**
 * R108, R117: whether a failed request may be made again, read here so the reducer reads no
 * error: an error whose `retryable` is `true` (as `ModelRequestError` marks no answer, a dropped
 * connection, 408, 409, 429 and 5xx; an adapter of one's own may set it too). Any other thrown
 * value is not retryable. The jitter is drawn here, since the reducer draws no random number.
 */
export const retryHint = (error: unknown): RetryHint | undefined => {
  try {
    if (typeof error !== 'object' || error === null) return undefined
    const { retryable, retryAfterMs } = error as { retryable?: unknown; retryAfterMs?: unknown }
    if (retryable !== true) return undefined
    const jitter = Math.random()
    const waits = typeof retryAfterMs === 'number' && retryAfterMs >= 0 && retryAfterMs < Infinity
    return waits ? { afterMs: retryAfterMs, jitter } : { jitter }
  } catch {
    return undefined // a getter that throws, a revoked Proxy: not an error that says it is retryable
  }
}

/** The `model/failed` signal of a request that threw `error`, with its retry hint when it has one. */
export const modelFailed = (activity: number, step: number, error: unknown): Signal => {
  const retry = retryHint(error)
  return retry === undefined
    ? { type: 'model/failed', activity, step, error }
    : { type: 'model/failed', activity, step, error, retry }
}
