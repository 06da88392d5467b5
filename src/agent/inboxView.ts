import type { InboxItem, InboxSnapshot } from '../contracts/inbox.js'
import type { AgentMessage } from '../contracts/messages.js'
import { fifoToArray } from '../machine/fifo.js'
import { itemMessage, itemWakes } from '../machine/queuedItem.js'
import type { DeliveryState } from '../machine/state.js'

const EMPTY: InboxSnapshot = Object.freeze({ queue: Object.freeze([]), outbox: Object.freeze([]) })

/** The inbox of a state as data (R41): the queue in FIFO order, then staged steering and context. */
const snapshotOf = (s: DeliveryState): InboxSnapshot => {
  if (s.queue.size === 0 && s.outbox.length === 0) return EMPTY
  const queue = fifoToArray(s.queue).map(
    (item): InboxItem =>
      Object.freeze({ message: itemMessage(item), placement: itemWakes(item) ? 'queued' : 'parked' }),
  )
  const outbox: InboxItem[] = []
  for (const e of s.outbox) {
    if (e.kind === 'steering') outbox.push(Object.freeze({ message: e.message, placement: 'steering' }))
    // Context without an id (a tool's) was never sent: it is no item of the inbox.
    else if (e.data.id !== undefined)
      outbox.push(Object.freeze({ message: e.data as AgentMessage, placement: 'context' }))
  }
  return Object.freeze({ queue: Object.freeze(queue), outbox: Object.freeze(outbox) })
}

const sameItems = (a: readonly InboxItem[], b: readonly InboxItem[]): boolean =>
  a.length === b.length &&
  a.every((x, i) => {
    const y = b[i] as InboxItem
    return (
      x.placement === y.placement && x.message.id === y.message.id && x.message.content === y.message.content
    )
  })

const same = (a: InboxSnapshot, b: InboxSnapshot): boolean =>
  sameItems(a.queue, b.queue) && sameItems(a.outbox, b.outbox)

/**
 * `agent.inbox` and `inbox$` (R41): a snapshot is made only when asked for, and kept until the
 * queue or the outbox changes (the same object is returned until then, and an equal one made
 * anew is replaced by the old), so `inbox$` never emits two equal snapshots in a row.
 */
export class InboxView {
  #queue: DeliveryState['queue'] | undefined
  #outbox: DeliveryState['outbox'] | undefined
  #snapshot: InboxSnapshot = EMPTY

  current(s: DeliveryState): InboxSnapshot {
    if (s.queue !== this.#queue || s.outbox !== this.#outbox) {
      const next = snapshotOf(s)
      this.#queue = s.queue
      this.#outbox = s.outbox
      if (!same(next, this.#snapshot)) this.#snapshot = next
    }
    return this.#snapshot
  }
}
