import { type OperatorFunction, scan } from 'rxjs'
import type { AgentEvent } from '../contracts/events.js'
import type { InboxItem, InboxSnapshot } from '../contracts/inbox.js'

const EMPTY: InboxSnapshot = Object.freeze({ queue: Object.freeze([]), outbox: Object.freeze([]) })

const freeze = (queue: InboxItem[], outbox: InboxItem[]): InboxSnapshot =>
  Object.freeze({ queue: Object.freeze(queue), outbox: Object.freeze(outbox) })

/** One inbox event applied to a snapshot (R30, R41): a pure fold step. */
export const inboxViewStep = (view: InboxSnapshot, event: AgentEvent): InboxSnapshot => {
  switch (event.type) {
    case 'agent/inbox/enqueue': {
      const item: InboxItem = Object.freeze({ message: event.message, placement: event.placement })
      if (event.placement === 'steering') return freeze([...view.queue], [...view.outbox, item])
      const queue = [...view.queue]
      queue.splice(event.index ?? queue.length, 0, item)
      return freeze(queue, [...view.outbox])
    }
    case 'agent/inbox/dequeue':
    case 'agent/inbox/discard': {
      const ids = new Set(
        event.type === 'agent/inbox/dequeue' ? [event.message.id] : event.messages.map((m) => m.id),
      )
      const keep = (item: InboxItem) => !ids.has(item.message.id)
      return freeze(view.queue.filter(keep), view.outbox.filter(keep))
    }
    case 'agent/inbox/replace': {
      const swap = (item: InboxItem): InboxItem =>
        item.message.id === event.message.id
          ? Object.freeze({ message: event.message, placement: item.placement })
          : item
      return freeze(view.queue.map(swap), view.outbox.map(swap))
    }
    case 'agent/inbox/reorder': {
      const byId = new Map(view.queue.map((item) => [item.message.id, item]))
      return freeze(
        event.ids.flatMap((id) => {
          const item = byId.get(id)
          return item ? [item] : []
        }),
        [...view.outbox],
      )
    }
    default:
      return view
  }
}

/**
 * Folds an agent's live events into its inbox: the queue and the staged steering, as the inbox
 * events show them (R30, R41).
 *
 * Like `scan()` over `agent.events$`, emitting the snapshot after every inbox event.
 *
 * ```text
 * events$:  --e----f----d----x--|     e = enqueue(a), f = enqueue(b), d = dequeue(a), x = discard([b])
 * view:     --A----B----C----D--|     A = [a], B = [a, b], C = [b], D = []
 * ```
 *
 * 1. `enqueue` adds at the tail of the queue (at `index` when the event names one) or the end of
 *    the outbox (steering); `dequeue` and `discard` remove; `replace` swaps the content in place;
 *    `reorder` sets the queue's order.
 * 2. It equals `agent.inbox` without what no event shows: every queue item is `queued` (a parked
 *    item's enqueue looks the same) and the outbox holds steering only (staged context has no
 *    event, R3).
 * 3. Other events pass nothing on. Errors and completion pass through.
 * 4. `initial`: the inbox before the first event (for a resumed agent, `agent.inbox`).
 *
 * @example agent.events$.pipe(inboxView()).subscribe((inbox) => render(inbox.queue))
 */
export const inboxView = (
  options: { readonly initial?: InboxSnapshot } = {},
): OperatorFunction<AgentEvent, InboxSnapshot> => {
  const initial = options.initial
    ? freeze(
        options.initial.queue.map((item) =>
          Object.freeze({ message: item.message, placement: 'queued' as const }),
        ),
        options.initial.outbox.filter((item) => item.placement === 'steering'),
      )
    : EMPTY
  return (events) => events.pipe(scan((view: InboxSnapshot, event) => inboxViewStep(view, event), initial))
}
