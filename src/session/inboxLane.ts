import type { InboxItemPlacement } from '../contracts/inbox.js'
import type { AgentMessage } from '../contracts/messages.js'

/** One waiting item while a journal is folded, linked into its lane. */
export type LaneNode = {
  message: AgentMessage
  placement: InboxItemPlacement
  readonly turn: number | undefined
  /** A followup's step limit (R81). */
  readonly maxSteps?: number | undefined
  lane: Lane | undefined
  prev: LaneNode | undefined
  next: LaneNode | undefined
}

/**
 * An ordered lane of waiting items (the queue or the outbox) as a doubly linked list: taking an
 * item out, and putting one at either end, cost O(1) whatever the lane's length, so folding a
 * journal of n records is O(n) (whatever the records).
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
export const insertBefore = (lane: Lane, node: LaneNode, before: LaneNode | undefined): void => {
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

export const laneNodes = (lane: Lane): LaneNode[] => {
  const nodes: LaneNode[] = []
  for (let node = lane.head; node; node = node.next) nodes.push(node)
  return nodes
}
