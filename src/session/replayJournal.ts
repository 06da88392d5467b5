import type { SessionEvent } from '../contracts/events.js'
import type { InboxItem, InboxRecord, Outcome } from '../contracts/inbox.js'
import type { AgentMessageId } from '../contracts/messages.js'
import {
  emptyLane,
  insertBefore,
  type Lane,
  type LaneNode,
  laneNodes,
  pushBack,
  pushFront,
  unlink,
} from './inboxLane.js'

/** A waiting item as a journal restores it: with the turn guard of a guarded steering (R49). */
export type JournalItem = InboxItem & { readonly turn?: number; readonly maxSteps?: number }

/** What an inbox journal says, folded: what still waits, and how the settled ids settled. */
export type JournalReplay = {
  /** Queued (waking) and parked items, in FIFO order. */
  readonly queue: JournalItem[]
  /** Staged steering and context, in acceptance order (a promoted item where it was promoted). */
  readonly outbox: JournalItem[]
  /** The journal's settlements by id, in the order they happened (the first one per id). */
  readonly settled: Map<AgentMessageId, Outcome>
}

/**
 * The ids a transcript holds: the `data.id` of its `user/message` and `steering/message` events.
 * Those were delivered, so they no longer wait (R51).
 */
export const deliveredIds = (events: readonly SessionEvent[]): Set<string> => {
  const ids = new Set<string>()
  for (const event of events)
    if ((event.type === 'user/message' || event.type === 'steering/message') && event.data.id !== undefined)
      ids.add(event.data.id)
  return ids
}

/**
 * Folds an inbox journal (R50) into what still waits (R51). Pure; O(records). The records are
 * taken in order:
 *
 * - `add` puts a new item at the tail of its lane: `queued`/`parked` in the queue (at its head
 *   when `at: 'head'`), `steering`/`context` in the outbox (`at` does not apply there). An id
 *   already seen (waiting or settled) is not added again: an id is accepted once.
 * - `replace` gives a waiting item the record's content and source; its id, placement, turn
 *   guard and position stay.
 * - `move` takes a queued or parked item out and puts it back right before the queued item
 *   `before` names (at the tail when it is `null` or names no queued item). Outbox items are not
 *   reordered.
 * - `promote` to `steering` takes a queued or parked item to the end of the outbox as steering; to
 *   `head` it goes to the head of the queue as `queued` (waking; a parked item stops being
 *   parked). An outbox item is not promoted.
 * - `settle` takes the item out of its lane, and the outcome goes into `settled` whether or not
 *   the item is known (a compacted journal keeps a settlement without its `add`); a second
 *   settlement of the same id is ignored (an id settles once, R42).
 * - `replace`, `move` and `promote` of an id that is not waiting are ignored.
 *
 * An id in `delivered` (the transcript holds it, `deliveredIds`) takes part in the fold like any
 * other, since later records may name it as a `move`'s `before` (a claimed prompt stays in the
 * queue here until the transcript has it), and is left out of the result at the end. So folding
 * a compacted journal followed by more records gives what folding the whole journal gives.
 */
export const replayJournal = (
  records: readonly InboxRecord[],
  delivered: ReadonlySet<string>,
): JournalReplay => {
  const queue = emptyLane()
  const outbox = emptyLane()
  const nodes = new Map<string, LaneNode>()
  const settled = new Map<AgentMessageId, Outcome>()
  /** The waiting item `id` names, if any. */
  const waiting = (id: string): LaneNode | undefined => {
    const node = nodes.get(id)
    return node?.lane ? node : undefined
  }
  const inQueue = (id: string): LaneNode | undefined => {
    const node = waiting(id)
    return node?.lane === queue ? node : undefined
  }

  for (const record of records) {
    switch (record.op) {
      case 'add': {
        const id = record.message.id
        if (nodes.has(id) || settled.has(id)) break
        const node: LaneNode = {
          message: record.message,
          placement: record.placement,
          turn: record.turn,
          maxSteps: record.maxSteps,
          lane: undefined,
          prev: undefined,
          next: undefined,
        }
        nodes.set(id, node)
        if (record.placement === 'steering' || record.placement === 'context') pushBack(outbox, node)
        else if (record.at === 'head') pushFront(queue, node)
        else pushBack(queue, node)
        break
      }
      case 'replace': {
        const node = waiting(record.message.id)
        if (node) node.message = record.message
        break
      }
      case 'move': {
        const node = inQueue(record.id)
        const before = record.before === null ? undefined : inQueue(record.before)
        if (!node || before === node) break
        unlink(node)
        insertBefore(queue, node, before)
        break
      }
      case 'promote': {
        const node = inQueue(record.id)
        if (!node) break
        unlink(node)
        if (record.to === 'steering') {
          node.placement = 'steering'
          pushBack(outbox, node)
        } else {
          node.placement = 'queued'
          pushFront(queue, node)
        }
        break
      }
      case 'settle': {
        const node = waiting(record.id)
        if (node) unlink(node)
        if (!settled.has(record.id)) settled.set(record.id, record.outcome)
        break
      }
    }
  }
  const waits = (node: LaneNode) => !delivered.has(node.message.id)
  return { queue: items(queue, waits), outbox: items(outbox, waits), settled }
}

const items = (lane: Lane, waits: (node: LaneNode) => boolean): JournalItem[] =>
  laneNodes(lane)
    .filter(waits)
    .map(({ message, placement, turn, maxSteps }) => {
      if (maxSteps !== undefined) return { message, placement, maxSteps }
      return turn === undefined ? { message, placement } : { message, placement, turn }
    })
