import { defer, type MonoTypeOperatorFunction, tap } from 'rxjs'
import { InvariantViolation } from '../contracts/errors.js'
import type { AgentEvent } from '../contracts/events.js'
import type { AgentStatus } from '../contracts/messages.js'

/**
 * Checks R31 on a stream of live events: an agent never publishes the same status twice in a row.
 *
 * Like `tap()`, but it remembers each agent's last `agent/status` and errors with
 * `InvariantViolation('R31', …)` instead of forwarding a repeated status.
 *
 * ```text
 * --r--i--e--r--i--e--i--|     r = status running, i = status idle, e = any other event
 *   statusAlternation()
 * --r--i--e--r--i--e--#        # = InvariantViolation R31: idle published twice in a row
 * ```
 *
 * Rules:
 * 1. Only `agent/status` events are compared, per `agentId`; other events between two statuses
 *    do not matter, nor do other agents' statuses.
 * 2. The first status seen for an agent is accepted whatever it is (a subscriber may start in the
 *    middle of a live stream).
 * 3. A status equal to the agent's previous one errors the result with `InvariantViolation`
 *    (`rule === 'R31'`) naming the agent and the status; that event is not forwarded and the
 *    source is unsubscribed.
 * 4. Every event that passes is forwarded unchanged (same object), at the same moment.
 * 5. Completion and source errors pass through unchanged. Unsubscribing unsubscribes from the
 *    source.
 * 6. State is per subscription (one `Map` created in `defer`): each subscriber and each
 *    resubscription starts fresh.
 *
 * @example
 * ```ts
 * agent.events$.pipe(statusAlternation()).subscribe({ error: (e) => fail(e) })
 * ```
 *
 * @returns An operator that mirrors the source and errors at the first repeated status.
 */
export function statusAlternation(): MonoTypeOperatorFunction<AgentEvent> {
  return (source) =>
    defer(() => {
      const last = new Map<string, AgentStatus>()
      return source.pipe(
        tap((event) => {
          if (event.type !== 'agent/status') return
          if (last.get(event.agentId) === event.status) {
            throw new InvariantViolation(
              'R31',
              `agent '${event.agentId}': agent/status ${event.status} published twice in a row ` +
                '(each status event must be a transition)',
            )
          }
          last.set(event.agentId, event.status)
        }),
      )
    })
}
