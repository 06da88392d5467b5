import { defer, type MonoTypeOperatorFunction, tap } from 'rxjs'
import { InvariantViolation } from '../contracts/errors.js'
import type { AgentEvent } from '../contracts/events.js'
import type { InboxSnapshot } from '../contracts/inbox.js'
import { createConservationTracker } from './conservationStep.js'

/**
 * Checks R30 FIFO conservation on a stream of live events and errors at the first violation.
 *
 * Like `tap()`, but it keeps the outstanding inbox ids per agent and errors with
 * `InvariantViolation('R30', …)` instead of forwarding an event that breaks conservation.
 *
 * ```text
 * --e--d--f--x--d--|     e = enqueue m1, d = dequeue m1, f = enqueue m2, x = discard [m2]
 *   inboxConservation()
 * --e--d--f--x--#        # = InvariantViolation R30: dequeue of m1, which is not outstanding
 * ```
 *
 * Rules:
 * 1. Per `agentId`: `agent/inbox/enqueue` adds `message.id` to the outstanding ids,
 *    `agent/inbox/dequeue` removes `message.id`, `agent/inbox/discard` removes each id of its
 *    batch. The rule is the one of `conservationStep` (same code).
 * 2. Violations: an id enqueued while outstanding; a dequeue or discard of an id that is not
 *    outstanding (never enqueued, already settled, or twice in one batch); an empty discard.
 *    At a violation the result errors with `InvariantViolation` (`rule === 'R30'`) whose message
 *    names the agent, the event type and the id; the violating event is not forwarded and the
 *    source is unsubscribed.
 * 3. Every other event passes through unchanged (same object), at the same moment.
 * 4. `agent/status` `idle` checks nothing: parked items (R8) and leftover steering (R13c) may
 *    remain outstanding. Use `outstandingInbox(events)` where a scenario knows the inbox must be
 *    empty. Completion checks nothing either, and completes the result.
 * 5. Source errors pass through unchanged. Unsubscribing unsubscribes from the source.
 * 6. State is per subscription: each subscriber (and each resubscription by `retry`/`repeat`)
 *    starts with nothing outstanding, so subscribe before the first `enqueue` (events published
 *    earlier are unknown, and their `dequeue` would be reported).
 * 7. O(1) per event (O(batch) per discard): the state is one mutable `Map` of `Set`s created in
 *    `defer` and never shared, rather than a `scan` over the immutable `conservationStep`, which
 *    would copy a set per event.
 * 8. `initial`: what was already outstanding before the first event, as an inbox snapshot (the
 *    queue and staged steering; context has no inbox events). A resumed agent publishes no
 *    `enqueue` for the items it restored (R51): `inboxConservation({initial: agent.inbox})`.
 * 9. R30 as amended by inbox control: `replace` and `reorder` change nothing here; an id is
 *    enqueued again only after its `dequeue` (`promote`, an interrupted admission's prompt).
 *
 * @example
 * ```ts
 * agent.events$.pipe(inboxConservation()).subscribe({ error: (e) => fail(e) })
 * ```
 *
 * @returns An operator that mirrors the source and errors at the first R30 violation.
 */
export function inboxConservation(
  options: { readonly initial?: InboxSnapshot } = {},
): MonoTypeOperatorFunction<AgentEvent> {
  const initial = options.initial
    ? [...options.initial.queue, ...options.initial.outbox]
        .filter((item) => item.placement !== 'context')
        .map((item) => item.message.id)
    : []
  return (source) =>
    defer(() => {
      const tracker = createConservationTracker(initial)
      return source.pipe(
        tap((event) => {
          const violation = tracker.step(event)
          if (violation !== undefined) throw new InvariantViolation('R30', violation)
        }),
      )
    })
}
