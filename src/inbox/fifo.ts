/**
 * A persistent (immutable) FIFO queue: a banker's queue of two cons lists. `push` and `shift`
 * are O(1) amortised and never copy the queue, so the reducer can keep its state immutable while
 * 100,000 queued messages drain in linear time (no `array.shift()` / `slice(1)`).
 */

type Cons<T> = { readonly head: T; readonly tail: Cons<T> | null }

export type Fifo<T> = {
  /** Items in FIFO order, front first. */
  readonly front: Cons<T> | null
  /** Items pushed since the last reversal, newest first. */
  readonly back: Cons<T> | null
  readonly size: number
}

const EMPTY: Fifo<never> = Object.freeze({ front: null, back: null, size: 0 })

export const emptyFifo = <T>(): Fifo<T> => EMPTY

export const fifoPush = <T>(q: Fifo<T>, item: T): Fifo<T> => ({
  front: q.front,
  back: { head: item, tail: q.back },
  size: q.size + 1,
})

const reverse = <T>(list: Cons<T> | null): Cons<T> | null => {
  let out: Cons<T> | null = null
  for (let node = list; node; node = node.tail) out = { head: node.head, tail: out }
  return out
}

/** Moves the back list to the front when the front is empty, so the head is readable. */
const normalise = <T>(q: Fifo<T>): Fifo<T> =>
  q.front || !q.back ? q : { front: reverse(q.back), back: null, size: q.size }

/** The head and the rest, or `undefined` when empty. */
export const fifoShift = <T>(q: Fifo<T>): { readonly item: T; readonly rest: Fifo<T> } | undefined => {
  const n = normalise(q)
  if (!n.front) return undefined
  return { item: n.front.head, rest: { front: n.front.tail, back: n.back, size: n.size - 1 } }
}

export const fifoToArray = <T>(q: Fifo<T>): T[] => {
  const out: T[] = []
  for (let node = q.front; node; node = node.tail) out.push(node.head)
  const back: T[] = []
  for (let node = q.back; node; node = node.tail) back.push(node.head)
  for (let i = back.length - 1; i >= 0; i--) out.push(back[i] as T)
  return out
}
