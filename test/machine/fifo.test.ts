import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { emptyFifo, type Fifo, fifoPush, fifoShift, fifoToArray } from '../../src/machine/fifo.js'

const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}

const of = <T>(...items: T[]): Fifo<T> =>
  deepFreeze(items.reduce<Fifo<T>>((q, item) => fifoPush(q, item), emptyFifo()))

/** Shifts everything, in order. */
const drain = <T>(q: Fifo<T>): T[] => {
  const out: T[] = []
  for (let next = fifoShift(q); next; next = fifoShift(next.rest)) out.push(next.item)
  return out
}

describe('fifo', () => {
  it('R30: the empty queue is shared, frozen, and shifts nothing', () => {
    expect(emptyFifo()).toBe(emptyFifo())
    expect(Object.isFrozen(emptyFifo())).toBe(true)
    expect(emptyFifo().size).toBe(0)
    expect(fifoShift(emptyFifo())).toBeUndefined()
    expect(fifoToArray(emptyFifo())).toStrictEqual([])
  })

  const orders: readonly (readonly [string, readonly number[]])[] = [
    ['one item', [1]],
    ['two items', [1, 2]],
    ['many items', [1, 2, 3, 4, 5, 6, 7]],
  ]
  it.each(orders)('R7: %s come out in push order', (_name, items) => {
    const q = of(...items)
    expect(q.size).toBe(items.length)
    expect(fifoToArray(q)).toStrictEqual(items)
    expect(drain(q)).toStrictEqual(items)
  })

  it('R7: shift returns the head and the rest, with sizes', () => {
    const shifted = fifoShift(of('a', 'b', 'c'))
    expect(shifted?.item).toBe('a')
    expect(shifted && fifoToArray(shifted.rest)).toStrictEqual(['b', 'c'])
    expect(shifted?.rest.size).toBe(2)
  })

  it('R7: pushes after shifts keep FIFO order across the two internal lists', () => {
    const first = fifoShift(of(1, 2, 3))
    const q = deepFreeze(fifoPush(fifoPush(first?.rest ?? emptyFifo(), 4), 5))
    expect(fifoToArray(q)).toStrictEqual([2, 3, 4, 5])
    expect(q.size).toBe(4)
    expect(drain(q)).toStrictEqual([2, 3, 4, 5])
  })

  it('persistence: older versions are unchanged by pushes and shifts of newer ones', () => {
    const v1 = of(1, 2)
    const v2 = deepFreeze(fifoPush(v1, 3))
    const v3 = deepFreeze(fifoShift(v2)?.rest ?? emptyFifo())
    const v4 = deepFreeze(fifoPush(v1, 9)) // a branch from the same version
    expect(fifoToArray(v1)).toStrictEqual([1, 2])
    expect(fifoToArray(v2)).toStrictEqual([1, 2, 3])
    expect(fifoToArray(v3)).toStrictEqual([2, 3])
    expect(fifoToArray(v4)).toStrictEqual([1, 2, 9])
    expect(drain(v2)).toStrictEqual([1, 2, 3])
    expect(drain(v2)).toStrictEqual([1, 2, 3]) // shifting the same version twice gives the same
    expect([v1.size, v2.size, v3.size, v4.size]).toStrictEqual([2, 3, 2, 3])
  })

  it('behaves like an array under any mix of push and shift (every version kept frozen)', () => {
    const command = fc.oneof(
      fc.integer().map((n) => ({ push: n })),
      fc.constant({ push: undefined }),
    )
    fc.assert(
      fc.property(fc.array(command, { maxLength: 60 }), (commands) => {
        let q: Fifo<number> = emptyFifo()
        let model: number[] = []
        const versions: (readonly [Fifo<number>, number[]])[] = []
        for (const { push } of commands) {
          if (push === undefined) {
            const shifted = fifoShift(q)
            expect(shifted?.item).toBe(model[0])
            q = shifted ? shifted.rest : q
            model = model.slice(1)
          } else {
            q = fifoPush(q, push)
            model = [...model, push]
          }
          versions.push([deepFreeze(q), model])
          expect(q.size).toBe(model.length)
        }
        for (const [version, items] of versions) expect(fifoToArray(version)).toStrictEqual(items)
      }),
      { numRuns: 200 },
    )
  })

  it('holds 100,000 items and drains them in order (no copying per operation)', () => {
    const n = 100_000
    let q: Fifo<number> = emptyFifo()
    for (let i = 0; i < n; i++) q = fifoPush(q, i)
    expect(q.size).toBe(n)
    let expected = 0
    let inOrder = true
    let midway: Fifo<number> = emptyFifo()
    for (let next = fifoShift(q); next; next = fifoShift(next.rest)) {
      if (next.item !== expected) inOrder = false
      expected++
      if (expected === n / 2) midway = next.rest
    }
    expect(inOrder).toBe(true)
    expect(expected).toBe(n)
    // A version kept from the middle of the drain still holds the second half, and grows.
    const grown = fifoToArray(fifoPush(midway, n))
    expect(grown).toHaveLength(n / 2 + 1)
    expect([grown[0], grown.at(-1)]).toStrictEqual([n / 2, n])
    expect(fifoToArray(q)).toHaveLength(n) // the full version is untouched
  })
})
