/**
 * A persistent FIFO over a shared append-only array with a head index. A push onto the
 * newest version appends in place (older versions end before it, so they do not see it); a push
 * onto an older version copies (copy on branch). The consumed prefix is dropped by copying once it
 * is half the array, so both ends stay O(1) amortised and a queue costs one slot per item.
 */
export type Fifo<T> = {
  readonly items: T[]
  readonly head: number
  readonly end: number
  readonly size: number
}

const EMPTY: Fifo<never> = Object.freeze({ items: [] as never[], head: 0, end: 0, size: 0 })

export const emptyFifo = <T>(): Fifo<T> => EMPTY

export const fifoPush = <T>(q: Fifo<T>, item: T): Fifo<T> => {
  let items = q.items
  let head = q.head
  // Copy when q is not the newest version (a branch), or when its array was frozen (tests
  // deep-freeze states); the reducer's linear use never copies.
  if (q === EMPTY || q.end !== items.length || Object.isFrozen(items)) {
    items = items.slice(head, q.end)
    head = 0
  }
  items.push(item)
  return { items, head, end: items.length, size: items.length - head }
}

export const fifoShift = <T>(q: Fifo<T>): { readonly item: T; readonly rest: Fifo<T> } | undefined => {
  if (q.size === 0) return undefined
  const item = q.items[q.head] as T
  let items = q.items
  let head = q.head + 1
  let end = q.end
  if (head >= 1024 && head * 2 >= end) {
    items = items.slice(head, end)
    end -= head
    head = 0
  }
  return { item, rest: { items, head, end, size: end - head } }
}

export const fifoToArray = <T>(q: Fifo<T>): T[] => q.items.slice(q.head, q.end)

/** A FIFO of `items` (taken as they are: pass a fresh array). */
export const fifoFrom = <T>(items: T[]): Fifo<T> =>
  items.length === 0 ? EMPTY : { items, head: 0, end: items.length, size: items.length }
