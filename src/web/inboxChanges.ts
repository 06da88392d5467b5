import type { InboxItem, InboxSnapshot } from '../contracts/inbox.js'
import type { AgentMessageId, ContentBlock } from '../contracts/messages.js'

/** The two lists of an inbox snapshot. */
export type InboxList = 'queue' | 'outbox'

/**
 * One change to what waits, as `serve` sends it after the first snapshot: a page folds the
 * changes into the snapshot it holds (`applyInboxChanges`) instead of getting the whole inbox,
 * every waiting message again, on each change.
 */
export type InboxChange =
  /** The item left the inbox. */
  | { readonly op: 'remove'; readonly id: AgentMessageId }
  /** The item, new or changed (its text or its placement), now stands at `index` of `list`. */
  | { readonly op: 'put'; readonly list: InboxList; readonly index: number; readonly item: InboxItem }
  /** The item, unchanged, now stands at `index` of `list`. */
  | { readonly op: 'move'; readonly list: InboxList; readonly index: number; readonly id: AgentMessageId }

const LISTS: readonly InboxList[] = ['queue', 'outbox']
type Lists = Record<InboxList, InboxItem[]>

/**
 * Whether two blocks are the same: the same object, or text blocks of the same text. A queued
 * prompt is kept compact (its id and text) and made into a new message for each snapshot, so its
 * blocks are new objects each time; their `text` is the one string it keeps.
 */
const sameBlock = (a: ContentBlock, b: ContentBlock): boolean =>
  a === b ||
  (a.type === 'text' &&
    b.type === 'text' &&
    a.text === b.text &&
    Object.keys(a).length === 2 &&
    Object.keys(b).length === 2)

/** The same message id, placement and content: an item the page holds need not be sent again. */
const sameItem = (a: InboxItem, b: InboxItem): boolean =>
  a.placement === b.placement &&
  a.message.id === b.message.id &&
  (a.message.content === b.message.content ||
    (a.message.content.length === b.message.content.length &&
      a.message.content.every((block, i) => sameBlock(block, b.message.content[i]!))))

/** Applies one change to `lists` in place; a move of an item it does not hold changes nothing. */
const apply = (lists: Lists, change: InboxChange): void => {
  const id = change.op === 'put' ? change.item.message.id : change.id
  let held: InboxItem | undefined
  for (const name of LISTS) {
    const at = lists[name].findIndex((item) => item.message.id === id)
    if (at !== -1) held = lists[name].splice(at, 1)[0]
  }
  if (change.op === 'remove') return
  const item = change.op === 'put' ? change.item : held
  if (item === undefined) return
  const list = lists[change.list]
  list.splice(Math.min(change.index, list.length), 0, item)
}

/** `inbox` with `changes` applied in order: a new snapshot (the page's copy of what waits). */
export const applyInboxChanges = (inbox: InboxSnapshot, changes: readonly InboxChange[]): InboxSnapshot => {
  const lists: Lists = { queue: [...inbox.queue], outbox: [...inbox.outbox] }
  for (const change of changes) apply(lists, change)
  return lists
}

/**
 * The changes that turn `before` into `after`, few and small: the items that left, then position
 * by position the items not already in place, each sent whole only when it is new or changed.
 * An item that was pushed out of its position by one leaving it (moved down, promoted) is moved
 * itself, in one change, instead of moving every item after it.
 */
export const inboxChanges = (before: InboxSnapshot, after: InboxSnapshot): InboxChange[] => {
  const changes: InboxChange[] = []
  const target = new Map<AgentMessageId, { list: InboxList; index: number; item: InboxItem }>()
  for (const list of LISTS)
    after[list].forEach((item, index) => {
      target.set(item.message.id, { list, index, item })
    })
  const lists: Lists = { queue: [], outbox: [] }
  const known = new Map<AgentMessageId, InboxItem>()
  for (const list of LISTS)
    for (const item of before[list]) {
      if (target.has(item.message.id)) {
        lists[list].push(item)
        known.set(item.message.id, item)
      } else changes.push({ op: 'remove', id: item.message.id })
    }
  const place = (id: AgentMessageId) => {
    const { list, index, item } = target.get(id)!
    const prior = known.get(id)
    const change: InboxChange =
      prior !== undefined && sameItem(prior, item)
        ? { op: 'move', list, index, id }
        : { op: 'put', list, index, item }
    apply(lists, change)
    known.set(id, item)
    changes.push(change)
  }
  for (const list of LISTS)
    after[list].forEach((item, index) => {
      const here = lists[list][index]
      if (here !== undefined && here.message.id === item.message.id) {
        if (!sameItem(here, item)) place(item.message.id)
        return
      }
      // The item here belongs further on: moved down, or to the other list.
      if (here !== undefined && lists[list][index + 1]?.message.id === item.message.id) {
        place(here.message.id)
        if (lists[list][index] !== undefined && sameItem(lists[list][index]!, item)) return
      }
      place(item.message.id)
    })
  return changes
}
