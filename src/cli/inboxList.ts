import type { InboxItem, InboxSnapshot } from '../contracts/inbox.js'
import type { AgentMessageId } from '../contracts/messages.js'
import { shownText, textOf } from './format.js'

/**
 * The waiting items as the app numbers them, from 1: the queue in the order it runs (queued and
 * parked), then the outbox (staged steering and context). `/promote N`, `/drop N` and `/move N M`
 * take these numbers; queue positions and numbers agree because the queue comes first.
 */
export const waitingItems = (inbox: InboxSnapshot): readonly InboxItem[] => [...inbox.queue, ...inbox.outbox]

/** Waiting item `n` (from 1), or a line that says which numbers there are. */
export const itemNumbered = (inbox: InboxSnapshot, n: number): InboxItem | string => {
  const items = waitingItems(inbox)
  const item = items[n - 1]
  if (item && n >= 1) return item
  return items.length === 0
    ? `no item ${n}: nothing is waiting`
    : `no item ${n}: the waiting items are numbered 1 to ${items.length} (/inbox lists them)`
}

/** One line of text: whitespace collapsed, cut to `max` characters with an ellipsis. */
export const oneLine = (text: string, max: number): string => {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(1, max - 1))}…`
}

/** The text of a waiting item. */
export const itemText = (item: InboxItem): string => textOf(item.message.content)

/**
 * The waiting items as numbered lines (`1 queued · what next`, `3 steering · be brief`), each cut
 * to `columns`; at most `limit` lines, then one that says how many more there are. The item being
 * edited in the input line is marked.
 */
export const inboxLines = (
  inbox: InboxSnapshot,
  options: { readonly columns: number; readonly limit: number; readonly editing?: AgentMessageId },
): string[] => {
  const items = waitingItems(inbox)
  const lines = items.slice(0, options.limit).map((item, i) => {
    const head = `  ${i + 1} ${item.placement} · `
    const mark = item.message.id === options.editing ? '  (editing)' : ''
    return `${head}${oneLine(shownText(item.message.content), options.columns - head.length - mark.length - 1)}${mark}`
  })
  if (items.length > options.limit) lines.push(`  … ${items.length - options.limit} more (/inbox lists all)`)
  return lines
}
