import { defer, filter, map, type OperatorFunction } from 'rxjs'
import type { SessionEvent } from '../contracts/events.js'
import type { Message } from '../contracts/messages.js'
import { MessageProjection } from '../session/messageProjection.js'

/**
 * The surface projection (R38) as an operator: emits the model-facing conversation after each
 * durable event that adds to it.
 *
 * Like `scan` over `projectEvent`, but emits only when the projection changed: it grew, or a
 * compaction or a rollback replaced it.
 *
 * ```text
 * transcript$:  -t--u--p--a--e--n-|     t = turn/start, u = user/message, p = step/start,
 *                                      a = assistant/message, e = step/end, n = turn/end
 * output:       ----U-----A--------|   U = [user], A = [user, assistant]
 * ```
 *
 * 1. Each emitted array is a new frozen array; earlier emissions never change.
 * 2. Errors and completion of the source pass through.
 * 3. Applied to `agent.transcript$` (which replays the session first), its last value equals
 *    `agent.session.messages()`.
 *
 * @returns An operator from durable events to the growing list of messages.
 */
export const surfaceMessages = (): OperatorFunction<SessionEvent, readonly Message[]> => (source) =>
  defer(() => {
    // One fold per subscriber: the same one `session.messages()` keeps (R38, R74, R77).
    const projection = new MessageProjection()
    return source.pipe(
      filter((event) => projection.see(event) !== undefined),
      map(() => Object.freeze(projection.entries.map((e) => e.message))),
    )
  })
