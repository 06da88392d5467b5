import type { AgentMessage, AgentMessageId, MessageSource } from '../contracts/messages.js'
import { userSource, userTextMessage } from '../messages/userText.js'

/**
 * A queued FIFO item: the accepted message and whether it may wake the driver (R8). A waking
 * item is the message itself, or `{id, text}` for a string send; a parked one is wrapped.
 *
 * Why `{id, text}`: a string send is the common followup, and a queue can hold many of them.
 * Its message (an object, a content array and a text block) is made again, an equal value, when
 * the item is dequeued or discarded: about 100 bytes per queued message instead of 200
 * (docs/performance.md#compact-queued-text).
 */
export type QueuedItem = AgentMessage | QueuedText | { readonly parked: AgentMessage } | LimitedItem
export type QueuedText = { readonly id: AgentMessageId; readonly text: string }
/** A waking followup whose turn may take at most `maxSteps` steps (R81). */
export type LimitedItem = { readonly limited: AgentMessage; readonly maxSteps: number }
/** A queued item as a claim keeps it: a compact one made whole. */
export type ClaimedItem = AgentMessage | { readonly parked: AgentMessage } | LimitedItem
export const claimedItem = (item: QueuedItem): ClaimedItem =>
  'text' in item ? userTextMessage(item.id, item.text) : item
export const itemMessage = (item: QueuedItem): AgentMessage => {
  const whole = claimedItem(item)
  return 'parked' in whole ? whole.parked : 'limited' in whole ? whole.limited : whole
}
export const itemWakes = (item: QueuedItem): boolean => !('parked' in item)
/** The item's id, without making a compact item's message. */
export const itemId = (item: QueuedItem): AgentMessageId =>
  'parked' in item ? item.parked.id : 'limited' in item ? item.limited.id : item.id

/** The item's source, without making a compact item's message. */
export const itemSource = (item: QueuedItem): MessageSource =>
  'parked' in item
    ? item.parked.source
    : 'limited' in item
      ? item.limited.source
      : 'text' in item
        ? userSource
        : item.source

/** The most steps the turn this item opens may take (R81), when its followup said. */
export const itemMaxSteps = (item: QueuedItem): number | undefined =>
  'limited' in item ? item.maxSteps : undefined
