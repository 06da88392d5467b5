import { scheduleWake } from './claim.js'
import { fifoFrom } from './fifo.js'
import type { InputOf } from './inputs.js'
import { settleContexts } from './outbox.js'
import type { OutboxEntry } from './outboxEntry.js'
import { itemMessage, itemWakes, type QueuedItem } from './queuedItem.js'
import { withClaim } from './records.js'
import type { Reduction } from './reduction.js'
import { activeWork, dequeuingHead } from './state.js'
import { discard, findWaiting, nextId, queueIds } from './waiting.js'

/**
 * R43: withdraws a waiting item. A queued, parked or steering item gets one `discard` with
 * reason `removed`; a staged context item, which never had an event, settles without one.
 */
export const remove = (r: Reduction, { id }: InputOf<'remove'>): void => {
  const s = r.state
  const found = findWaiting(s, id)
  if (!found) return
  if (found.in === 'queue') {
    const item = found.items[found.index] as QueuedItem
    found.items.splice(found.index, 1)
    r.setQueue(fifoFrom(found.items), s.waking - (itemWakes(item) ? 1 : 0))
    return discard(r, [itemMessage(item)], 'removed')
  }
  const entry = s.outbox[found.index] as OutboxEntry
  r.set({ outbox: s.outbox.filter((_, i) => i !== found.index) })
  // The claim's inherited prefix (R12) is one shorter when the entry came from it.
  const claim = s.activity?.kind === 'claim' ? s.activity : undefined
  if (claim && found.index < claim.inherited)
    r.setActivity(withClaim(claim, { inherited: claim.inherited - 1 }))
  if (entry.kind === 'steering') discard(r, [entry.message], 'removed')
  else r.settle(id, { kind: 'discarded', reason: 'removed' })
  // Context left without steering while nothing runs is appended now, as a cancel would (R13, V1).
  // A running compaction appends nothing before its summary (R75): the context waits for its end.
  const running = activeWork(r.state) || r.state.activity?.kind === 'compaction'
  if (!running && settleContexts(r)) r.effect({ kind: 'persist' })
  if (claim && entry.kind === 'steering' && found.index < claim.inherited) settleInherited(r)
}

/**
 * The inherited prefix of a claim (R12) that lost its last steering: context waited only for that
 * steering (R13c), so it is appended at once, as the rejected admission would have done (V1).
 */
const settleInherited = (r: Reduction): void => {
  const claim = r.state.activity
  if (claim?.kind !== 'claim') return
  const prefix = r.state.outbox.slice(0, claim.inherited)
  if (prefix.length === 0 || prefix.some((e) => e.kind === 'steering')) return
  r.set({ outbox: r.state.outbox.slice(claim.inherited) })
  r.setActivity(withClaim(claim, { inherited: 0 }))
  for (const entry of prefix)
    if (entry.kind === 'context') r.durable({ type: 'user/message', data: entry.data })
  r.effect({ kind: 'persist' })
}

/** R55: a remote send this agent refused when it applied it settles `refused`. */
export const refuse = (r: Reduction, { id, error }: InputOf<'refuse'>): void =>
  r.settle(id, { kind: 'refused', error })

/**
 * R44: changes a waiting item's content and source in place (same id, position, placement). The
 * input was validated and snapshotted like a send. Queued and steering items publish `replace`.
 */
export const replace = (r: Reduction, { message }: InputOf<'replace'>): void => {
  const s = r.state
  const found = findWaiting(s, message.id)
  if (!found) return
  r.journal({ op: 'replace', message })
  if (found.in === 'queue') {
    const item = found.items[found.index] as QueuedItem
    found.items[found.index] =
      'limited' in item
        ? { limited: message, maxSteps: item.maxSteps }
        : itemWakes(item)
          ? message
          : { parked: message }
    r.setQueue(fifoFrom(found.items), s.waking)
    return r.live({ type: 'agent/inbox/replace', agentId: s.agentId, message })
  }
  const entry = s.outbox[found.index] as OutboxEntry
  const next: OutboxEntry =
    entry.kind === 'steering'
      ? entry.guard === undefined
        ? { kind: 'steering', message }
        : { kind: 'steering', message, guard: entry.guard }
      : { kind: 'context', data: message }
  r.set({ outbox: s.outbox.map((e, i) => (i === found.index ? next : e)) })
  if (entry.kind === 'steering') r.live({ type: 'agent/inbox/replace', agentId: s.agentId, message })
}

/** R45: moves a queued or parked item to `index` of the resulting queue (clamped). */
export const move = (r: Reduction, { id, index }: InputOf<'move'>): void => {
  const s = r.state
  const found = findWaiting(s, id)
  if (found?.in !== 'queue') return
  const { items } = found
  const [item] = items.splice(found.index, 1)
  // The head a claim is dequeuing stays the head: the claim takes what it showed (R41).
  const to = Math.max(dequeuingHead(s) ? 1 : 0, Math.min(index, items.length))
  items.splice(to, 0, item as QueuedItem)
  if (to === found.index) return
  r.setQueue(fifoFrom(items), s.waking)
  r.live({ type: 'agent/inbox/reorder', agentId: s.agentId, ids: queueIds(items) })
  r.journal({ op: 'move', id, before: nextId(items, to) })
}

/**
 * R46: "steer this queued item now". While the window is open the item leaves the queue and
 * becomes steering of the active admission or turn (`dequeue`, then `enqueue(steering)`). While
 * it is closed the item moves to the head of the queue as a waking item, and one wake is
 * scheduled if none is: it is the next turn.
 */
export const promote = (r: Reduction, { id }: InputOf<'promote'>): void => {
  const s = r.state
  const found = findWaiting(s, id)
  if (found?.in !== 'queue') return
  const { items } = found
  const open = s.window && activeWork(s) !== undefined
  // The waking head is already the next turn: nothing changes, nothing is journaled.
  if (!open && found.index === 0 && itemWakes(items[0] as QueuedItem)) return
  const [item] = items.splice(found.index, 1) as [QueuedItem]
  const message = itemMessage(item)
  const waking = s.waking - (itemWakes(item) ? 1 : 0)
  if (open) {
    r.setQueue(fifoFrom(items), waking)
    r.set({ outbox: [...s.outbox, { kind: 'steering', message }] })
    r.live({ type: 'agent/inbox/dequeue', agentId: s.agentId, message })
    r.live({ type: 'agent/inbox/enqueue', agentId: s.agentId, message, placement: 'steering' })
    return r.journal({ op: 'promote', id, to: 'steering' })
  }
  items.unshift('limited' in item ? item : message)
  r.setQueue(fifoFrom(items), waking + 1)
  if (found.index !== 0) r.live({ type: 'agent/inbox/reorder', agentId: s.agentId, ids: queueIds(items) })
  r.journal({ op: 'promote', id, to: 'head' })
  scheduleWake(r)
}
