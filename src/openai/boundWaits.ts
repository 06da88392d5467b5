import { asyncScheduler, type MonoTypeOperatorFunction, type SchedulerLike, throwError, timeout } from 'rxjs'
import { ModelRequestError } from '../adapterKit/ModelRequestError.js'

export type WaitLimits = {
  /** How long the response headers may take to arrive. */
  readonly headersTimeoutMs: number
  /** How long the answer may then stay silent between two parts. */
  readonly idleTimeoutMs: number
}

/**
 * Bounds the waits on the server: RxJS `timeout`, with `first` for the headers and `each` for
 * every later silence, so that the time is the scheduler's (virtual in a `TestScheduler`).
 *
 * ```text
 * parts$:  ---h--e--e--------     h headers, e a body chunk; headersTimeoutMs 5, idleTimeoutMs 4
 * result:  ---h--e--e---#         # ModelRequestError: idle for 4; unsubscribes from parts$
 * ```
 *
 * 1. Without a first part within `headersTimeoutMs` it errors with a `ModelRequestError` (status
 *    `undefined`) that names `headersTimeoutMs`; after that, a silence of `idleTimeoutMs` errors
 *    with one that names `idleTimeoutMs`. Each says that retrying may help and how to raise it.
 * 2. It then unsubscribes from the source (which aborts the request); completion, an error of the
 *    source or an unsubscribe clear the pending timer, so none outlives the request.
 */
export const boundWaits =
  <T>(
    url: string,
    limits: WaitLimits,
    scheduler: SchedulerLike = asyncScheduler,
  ): MonoTypeOperatorFunction<T> =>
  (parts$) =>
    parts$.pipe(
      timeout({
        first: limits.headersTimeoutMs,
        each: limits.idleTimeoutMs,
        scheduler,
        with: ({ seen }) => throwError(() => timeoutError(url, limits, seen === 0)),
      }),
    )

const timeoutError = (url: string, limits: WaitLimits, headers: boolean): ModelRequestError =>
  new ModelRequestError(
    headers
      ? `openaiModel: POST ${url} got no response headers within ${limits.headersTimeoutMs} ms ` +
          '(headersTimeoutMs); retrying the request may help, or raise openaiModel({ headersTimeoutMs }) ' +
          'for a server that takes longer to start answering (a long prompt on a slow machine)'
      : `openaiModel: the answer to POST ${url} stalled: nothing arrived for ${limits.idleTimeoutMs} ms ` +
          '(idleTimeoutMs); retrying the request may help, or raise openaiModel({ idleTimeoutMs }) ' +
          'for a model that stays silent longer (a long prompt or a long reasoning before it streams)',
  )
