import { asyncScheduler, type MonoTypeOperatorFunction, type SchedulerLike, throwError, timeout } from 'rxjs'
import type { WaitLimits, WaitName } from './waitLimits.js'

/**
 * Bounds the waits on a model's server: RxJS `timeout`, with `first` for the start of the answer
 * and `each` for every later silence, so that the time is the scheduler's (virtual in a
 * `TestScheduler`). Both adapters use it: `steerable/openai` on the response headers and the body
 * chunks, `steerable/ai-sdk` on `doStream` resolving and the parts of its stream.
 *
 * ```text
 * parts$:  ---h--e--e--------     h the answer starts, e a part; headersTimeoutMs 5, idleTimeoutMs 4
 * result:  ---h--e--e---#         # timeoutError('idleTimeoutMs'); unsubscribes from parts$
 * ```
 *
 * 1. Without a first item within `headersTimeoutMs` it errors with `timeoutError('headersTimeoutMs')`;
 *    after that, a silence of `idleTimeoutMs` errors with `timeoutError('idleTimeoutMs')`. The
 *    adapter's error names the option and says how to raise it.
 * 2. It then unsubscribes from the source (which aborts the request); completion, an error of the
 *    source or an unsubscribe clear the pending timer, so none outlives the request.
 */
export const boundWaits =
  <T>(
    limits: WaitLimits,
    timeoutError: (wait: WaitName) => unknown,
    scheduler: SchedulerLike = asyncScheduler,
  ): MonoTypeOperatorFunction<T> =>
  (parts$) =>
    parts$.pipe(
      timeout({
        first: limits.headersTimeoutMs,
        each: limits.idleTimeoutMs,
        scheduler,
        with: ({ seen }) => throwError(() => timeoutError(seen === 0 ? 'headersTimeoutMs' : 'idleTimeoutMs')),
      }),
    )
