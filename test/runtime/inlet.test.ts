import { describe, expect, it } from 'vitest'
import { inlet } from '../../src/runtime/inlet.js'

describe('inlet (the pipeline sources of the façade)', () => {
  it('delivers to its one subscriber in order; drops values before the subscription and after complete', () => {
    const source = inlet<number>()
    const seen: (number | 'done')[] = []
    source.next(0)
    source.observable.subscribe({ next: (v) => seen.push(v), complete: () => seen.push('done') })
    source.next(1)
    source.next(2)
    source.complete()
    source.next(3)
    source.complete()
    expect(seen).toEqual([1, 2, 'done'])
  })

  it('refuses a second subscriber (one merge reads it), and accepts one again after unsubscribing', () => {
    const source = inlet<number>()
    const first = source.observable.subscribe()
    let error: unknown
    source.observable.subscribe({ error: (e) => (error = e) })
    expect(String(error)).toMatch(/second subscriber/)
    first.unsubscribe()
    const seen: number[] = []
    source.observable.subscribe((v) => seen.push(v))
    source.next(7)
    expect(seen).toEqual([7])
  })

  it('a subscription after complete completes at once', () => {
    const source = inlet<number>()
    source.complete()
    let completed = false
    source.observable.subscribe({ complete: () => (completed = true) })
    expect(completed).toBe(true)
  })

  it('calls onNext once per value that goes to the subscriber, just before it (R28 counting)', () => {
    const log: string[] = []
    const source = inlet<number>(() => log.push('counted'))
    source.next(0) // no subscriber yet: dropped, not counted
    source.observable.subscribe((v) => log.push(`got ${v}`))
    source.next(1)
    source.complete()
    source.next(2) // after complete: dropped, not counted
    expect(log).toEqual(['counted', 'got 1'])
  })
})
