import { Observable, type Subscriber } from 'rxjs'
import type { InboxItem, InboxSnapshot } from '../contracts/inbox.js'
import type { AgentMessage } from '../contracts/messages.js'
import { fifoToArray } from '../machine/fifo.js'
import { type DeliveryState, itemMessage, itemWakes } from '../machine/state.js'

const EMPTY: InboxSnapshot = Object.freeze({ queue: Object.freeze([]), outbox: Object.freeze([]) })

/** The inbox of a state as data (R41): the queue in FIFO order, then staged steering and context. */
export const snapshotOf = (s: DeliveryState): InboxSnapshot => {
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
 * `agent.inbox` and `agent.inbox$` (R41), made the first time either is read. A snapshot is made only when asked for, and kept until
 * the queue or the outbox changes (the same object is returned until then); `inbox$` emits the
 * current one on subscribe and a new one after each reduction that changed the inbox, never two
 * equal ones in a row. While nobody subscribes, a send costs nothing here.
 */
export class InboxSnapshots {
  private queue: DeliveryState['queue'] | undefined
  private outbox: DeliveryState['outbox'] | undefined
  private snapshot: InboxSnapshot = EMPTY
  private emitted: InboxSnapshot | undefined
  private readonly subscribers = new Set<Subscriber<InboxSnapshot>>()

  /** @param source The agent whose state the snapshots show (its driver). */
  constructor(private readonly source: { state(): DeliveryState }) {}

  current(): InboxSnapshot {
    const s = this.source.state()
    if (s.queue !== this.queue || s.outbox !== this.outbox) {
      const next = snapshotOf(s)
      this.queue = s.queue
      this.outbox = s.outbox
      if (!same(next, this.snapshot)) this.snapshot = next
    }
    return this.snapshot
  }

  readonly snapshots$ = new Observable<InboxSnapshot>((subscriber) => {
    // While anyone subscribes, every change is emitted, so the last emitted is the current one.
    this.emitted = this.current()
    subscriber.next(this.emitted)
    this.subscribers.add(subscriber)
    return () => this.subscribers.delete(subscriber)
  })

  /** After each reduction: a changed inbox goes to the subscribers of `inbox$`. */
  delivered(): void {
    if (this.subscribers.size === 0) return
    const s = this.source.state()
    if (s.queue === this.queue && s.outbox === this.outbox && this.emitted === this.snapshot) return
    const next = this.current()
    if (next === this.emitted) return
    this.emitted = next
    for (const subscriber of [...this.subscribers]) subscriber.next(next)
  }

  /** The agent is disposed: `inbox$` completes. */
  complete(): void {
    for (const subscriber of [...this.subscribers]) subscriber.complete()
  }
}
