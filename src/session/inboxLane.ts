import type { InboxItemPlacement } from '../contracts/inbox.js'
import type { AgentMessage } from '../contracts/messages.js'

/** One waiting item while a journal is folded, linked into its lane. */
export type LaneNode = {
  message: AgentMessage
  placement: InboxItemPlacement
  readonly turn: number | undefined
  lane: Lane | undefined
  prev: LaneNode | undefined
  next: LaneNode | undefined
}

/**
 * An ordered lane of waiting items (the queue or the outbox) as a doubly linked list: taking an
 * item out, and putting one at either end, cost O(1) whatever the lane's length, so folding a
 * journal of n records is O(n) (plus the walk of each `move`).
 */
export type Lane = { head: LaneNode | undefined; tail: LaneNode | undefined; size: number }

export const emptyLane = (): Lane => ({ head: undefined, tail: undefined, size: 0 })

export const unlink = (node: LaneNode): void => {
  const lane = node.lane
  if (!lane) return
  if (node.prev) node.prev.next = node.next
  else lane.head = node.next
  if (node.next) node.next.prev = node.prev
  else lane.tail = node.prev
  node.prev = node.next = node.lane = undefined
  lane.size--
}

/** Puts `node` (in no lane) before `before`, or at the tail when `before` is `undefined`. */
const insertBefore = (lane: Lane, node: LaneNode, before: LaneNode | undefined): void => {
  const prev = before ? before.prev : lane.tail
  node.prev = prev
  node.next = before
  if (prev) prev.next = node
  else lane.head = node
  if (before) before.prev = node
  else lane.tail = node
  node.lane = lane
  lane.size++
}

export const pushBack = (lane: Lane, node: LaneNode): void => insertBefore(lane, node, undefined)
export const pushFront = (lane: Lane, node: LaneNode): void => insertBefore(lane, node, lane.head)

/** Puts `node` (in no lane) so that `index` is its position, clamped into the lane. */
export const insertAt = (lane: Lane, node: LaneNode, index: number): void => {
  const at = Math.max(0, Math.min(index, lane.size))
  let before: LaneNode | undefined
  if (at < lane.size / 2) {
    before = lane.head
    for (let i = 0; i < at; i++) before = before?.next
  } else {
    before = undefined // the tail end: walk back from it
    for (let i = lane.size; i > at; i--) before = before ? before.prev : lane.tail
  }
  insertBefore(lane, node, before)
}

export const laneNodes = (lane: Lane): LaneNode[] => {
  const nodes: LaneNode[] = []
  for (let node = lane.head; node; node = node.next) nodes.push(node)
  return nodes
}
