/**
 * The inbox as the live events tell it (R41), folded one event at a time: the queue and the staged
 * steering, each message as its last event showed it. `agent.inbox` must equal it (see
 * checkInboxView.ts); the claims and drains must take its heads (R10, R20).
 *
 * The fold's rules:
 * 1. `enqueue(queued)` adds the message at the tail of the queue, except
 *    a. an interrupting send's (`ifBusy: 'interrupt'`), which goes to the head (R47);
 *    b. the prompt of an interrupted admission coming back (an id the queue had before): right
 *       behind the head, or at the head of an empty queue (R47).
 * 2. `enqueue(steering)` adds the message at the end of the staged steering.
 * 3. `dequeue` takes the id out of the queue or the steering. A claim takes the queue's head
 *    (R10), a drain the first steering (R20), a promote any queued item (R46).
 * 4. `discard` takes each of its ids out of wherever it waits. A cancel's or `dispose()`'s names
 *    everything waiting, queue first, each in order (R25, R29); a remove's one item (R43); an
 *    expiry's guarded steering only (R49).
 * 5. `replace` changes the message of the item with its id, in place (R44).
 * 6. `reorder` puts the queue in the order of its ids, which are the queue's ids (R45, R46).
 * 7. A promote (R46) is rule 3 then rule 2: `dequeue` then `enqueue(steering)` of the same id.
 *
 * Placement is what the events say: `queued` or `steering`; whether a queued item is parked is
 * not in any event (checkInboxView.ts judges it from what the schedule sent and promoted).
 */
import type { AgentEvent, AgentMessage } from '../../src/index.js'
import type { Log } from './log.js'

export type FoldItem = { message: AgentMessage }
type Pending = { readonly id: string; readonly head: string | undefined }

const textOf = (m: AgentMessage): string => {
  const first = m.content[0]
  return first?.type === 'text' ? first.text : '?'
}

export class InboxFold {
  readonly queue: FoldItem[] = []
  readonly steering: FoldItem[] = []
  /** Ids that were in the queue at some point (rule 1b). */
  readonly everQueued = new Set<string>()
  readonly problems: string[] = []
  /** A queued item's `dequeue` not yet known as a claim or a promote (the next event tells). */
  private dequeued: Pending | undefined
  private cursor = 0

  constructor(private readonly log: Log) {}

  /** Folds the live events published since the last call. */
  advance(): void {
    const live = this.log.live
    while (this.cursor < live.length) this.apply(live[this.cursor++] as AgentEvent)
  }

  /** Ends the fold: a last pending dequeue is a claim. */
  finish(): void {
    this.settleDequeue(undefined)
  }

  waiting(id: string): 'queue' | 'steering' | undefined {
    if (this.queue.some((i) => i.message.id === id)) return 'queue'
    return this.steering.some((i) => i.message.id === id) ? 'steering' : undefined
  }

  private name(id: string): string {
    return `"${this.log.sent.get(id)?.text ?? '?'}" (${id})`
  }

  private take(list: FoldItem[], id: string): boolean {
    const at = list.findIndex((i) => i.message.id === id)
    if (at >= 0) list.splice(at, 1)
    return at >= 0
  }

  /** Rule 3: a queued item's dequeue is a promote when its enqueue(steering) follows at once. */
  private settleDequeue(next: AgentEvent | undefined): void {
    const d = this.dequeued
    if (!d) return
    this.dequeued = undefined
    const promoted =
      next?.type === 'agent/inbox/enqueue' && next.placement === 'steering' && next.message.id === d.id
    if (!promoted && d.head !== d.id)
      this.problems.push(
        `R10: a claim dequeued ${this.name(d.id)} while ${d.head && this.name(d.head)} is the queue's head`,
      )
  }

  apply(e: AgentEvent): void {
    const p = (s: string) => this.problems.push(s)
    this.settleDequeue(e)
    switch (e.type) {
      case 'agent/inbox/enqueue': {
        const { message } = e
        if (this.waiting(message.id)) p(`R30: enqueue of ${this.name(message.id)}, which is waiting already`)
        if (e.placement === 'steering') {
          this.steering.push({ message })
          return
        }
        const again = this.everQueued.has(message.id)
        this.everQueued.add(message.id)
        if (again) this.queue.splice(Math.min(1, this.queue.length), 0, { message })
        else if (this.log.sent.get(message.id)?.options.ifBusy === 'interrupt')
          this.queue.unshift({ message })
        else this.queue.push({ message })
        return
      }
      case 'agent/inbox/dequeue': {
        const { id } = e.message
        const head = this.queue[0]?.message.id
        if (this.take(this.queue, id)) {
          this.dequeued = { id, head }
          return
        }
        const first = this.steering[0]?.message.id
        if (!this.take(this.steering, id)) p(`R30: dequeue of ${this.name(id)}, which is not waiting`)
        else if (first !== id)
          p(`R20: steering ${this.name(id)} drained while ${first && this.name(first)} is older`)
        return
      }
      case 'agent/inbox/discard': {
        const ids = e.messages.map((m) => m.id as string)
        const names = () => ids.map((id) => this.name(id))
        if (e.reason === 'cancel' || e.reason === 'dispose') {
          const all = [...this.queue, ...this.steering].map((i) => i.message.id as string)
          if (ids.join() !== all.join())
            p(
              `R25: discard:${e.reason} [${names()}] is not everything waiting in order [${all.map((id) => this.name(id))}]`,
            )
        }
        if (e.reason === 'removed' && ids.length !== 1) p(`R43: discard:removed names [${names()}]`)
        for (const id of ids) {
          if (e.reason === 'expired' && this.waiting(id) !== 'steering')
            p(`R49: discard:expired names ${this.name(id)}, which is not staged steering`)
          if (!this.take(this.queue, id) && !this.take(this.steering, id))
            p(`R30: discard of ${this.name(id)}, which is not waiting`)
        }
        return
      }
      case 'agent/inbox/replace': {
        const item = [...this.queue, ...this.steering].find((i) => i.message.id === e.message.id)
        if (item) item.message = e.message
        else p(`R44: replace of ${this.name(e.message.id)} ("${textOf(e.message)}"), which is not waiting`)
        return
      }
      case 'agent/inbox/reorder': {
        const ids = [...e.ids]
        const now = this.queue.map((i) => i.message.id as string)
        if ([...ids].sort().join() !== [...now].sort().join() || ids.length !== now.length) {
          p(
            `R45: reorder [${ids.map((id) => this.name(id))}] is not the queue [${now.map((id) => this.name(id))}]`,
          )
          return
        }
        const byId = new Map(this.queue.map((i) => [i.message.id as string, i]))
        this.queue.splice(0, this.queue.length, ...ids.map((id) => byId.get(id) as FoldItem))
        return
      }
      default:
        return
    }
  }
}
