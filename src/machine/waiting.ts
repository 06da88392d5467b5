import type { DiscardReason } from '../contracts/inbox.js'
import type { AgentMessage, AgentMessageId } from '../contracts/messages.js'
import { fifoToArray } from './fifo.js'
import { itemId, itemMessage, type QueuedItem } from './queuedItem.js'
import type { Reduction } from './reduction.js'
import { type DeliveryState, dequeuingHead } from './state.js'

/**
 * Where a waiting item is (R43): its index in the queue, or in the outbox. The queue head that a
 * claim is dequeuing is not waiting any more (cancel it instead), though the inbox still shows it.
 */
export type Found =
  | { readonly in: 'queue'; readonly index: number; readonly items: QueuedItem[] }
  | { readonly in: 'outbox'; readonly index: number }

export const findWaiting = (s: DeliveryState, id: AgentMessageId): Found | undefined => {
  const items = fifoToArray(s.queue)
  const from = dequeuingHead(s) ? 1 : 0
  for (let i = from; i < items.length; i++)
    if (itemId(items[i] as QueuedItem) === id) return { in: 'queue', index: i, items }
  const index = s.outbox.findIndex((e) =>
    e.kind === 'steering' ? e.message.id === id : e.data.id !== undefined && e.data.id === id,
  )
  return index === -1 ? undefined : { in: 'outbox', index }
}

/** One `discard` of these messages, with its reason, and the settlements journaled (R30, R50). */
export const discard = (r: Reduction, messages: readonly AgentMessage[], reason: DiscardReason): void => {
  r.live({ type: 'agent/inbox/discard', agentId: r.state.agentId, messages, reason })
  if (r.state.journaling)
    for (const m of messages) r.journal({ op: 'settle', id: m.id, outcome: { kind: 'discarded', reason } })
}

/** The queue's ids in order, for a `reorder` event (R45). */
export const queueIds = (items: readonly QueuedItem[]): AgentMessageId[] => items.map(itemId)

/** The id of the item after position `index`, or `null` at the tail (a `move` record, R50). */
export const nextId = (items: readonly QueuedItem[], index: number): AgentMessageId | null => {
  const next = items[index + 1]
  return next === undefined ? null : itemId(next)
}

/** The whole message of a queued item (a compact one made again). */
export const messageOf = itemMessage

/** R49: steering guarded for `turn` that is still staged when that turn ends (or is rejected). */
export const expireGuarded = (r: Reduction, turn: number): void => {
  const outbox = r.state.outbox
  const expired = outbox.filter((e) => e.kind === 'steering' && e.guard === turn)
  if (expired.length === 0) return
  r.set({ outbox: outbox.filter((e) => !expired.includes(e)) })
  discard(
    r,
    expired.map((e) => (e as { message: AgentMessage }).message),
    'expired',
  )
}

/** Whether `id` waits in the inbox or is the prompt being claimed or admitted (R42). */
export const holds = (s: DeliveryState, id: AgentMessageId): boolean => {
  const claim = s.activity?.kind === 'claim' ? s.activity : undefined
  if (claim?.item && itemMessage(claim.item).id === id) return true
  if (fifoToArray(s.queue).some((item) => itemId(item) === id)) return true
  return s.outbox.some((e) => (e.kind === 'steering' ? e.message.id : e.data.id) === id)
}
