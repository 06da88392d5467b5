import { filter, map, type OperatorFunction, scan } from 'rxjs'
import type { SessionEvent } from '../contracts/events.js'
import type { Message } from '../contracts/messages.js'
import { projectEvent } from '../session/projectMessages.js'

/**
 * The surface projection (R38) as an operator: emits the model-facing conversation after each
 * durable event that adds to it.
 *
 * Like `scan` over `projectEvent`, but emits only when the projection grew.
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
  source.pipe(
    scan(
      (acc: { readonly messages: readonly Message[]; readonly grew: boolean }, event) => {
        const message = projectEvent(event)
        return message
          ? { messages: Object.freeze([...acc.messages, Object.freeze(message)]), grew: true }
          : { messages: acc.messages, grew: false }
      },
      { messages: Object.freeze([]) as readonly Message[], grew: false },
    ),
    filter((acc) => acc.grew),
    map((acc) => acc.messages),
  )
