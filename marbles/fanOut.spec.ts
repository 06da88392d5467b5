import { connect, merge, Observable, take } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { fanOut } from '../src/runtime/fanOut.js'
import { marbles } from './operators/fixtures.js'

describe("fanOut (splitSends' connector: a Subject for connect, without the per-value garbage)", () => {
  // biome-ignore format: marble alignment
  it('as the connector of connect: every branch sees every value, the source is subscribed once', marbles((m) => {
    const source = m.hot('-a---b---c---|')
    const expected =     '-(aa)(bb)(cc)|'
    const shared = source.pipe(connect((s) => merge(s, s), { connector: fanOut }))
    m.expect(shared).toBeObservable(expected)
    m.expect(source).toHaveSubscriptions('^------------!')
  }))

  it('delivers to the subscribers of the moment, in subscription order', () => {
    const hub = fanOut<number>()
    const seen: string[] = []
    hub.subscribe({ next: (v) => seen.push(`first ${v}`) })
    hub.next(1)
    hub.subscribe({ next: (v) => seen.push(`second ${v}`) })
    hub.next(2)
    expect(seen).toEqual(['first 1', 'first 2', 'second 2'])
  })

  it('a subscriber leaving during a delivery does not disturb it', () => {
    const hub = fanOut<number>()
    const seen: string[] = []
    const observable = new Observable<number>((s) => hub.subscribe(s))
    observable.pipe(take(1)).subscribe((v) => seen.push(`once ${v}`))
    observable.subscribe((v) => seen.push(`always ${v}`))
    hub.next(1)
    hub.next(2)
    expect(seen).toEqual(['once 1', 'always 1', 'always 2'])
  })

  it('after complete or error nothing is delivered, and late subscribers are told how it ended', () => {
    const done = fanOut<number>()
    const seen: string[] = []
    done.subscribe({ next: (v) => seen.push(`${v}`), complete: () => seen.push('complete') })
    done.complete()
    done.next(1)
    done.complete()
    done.subscribe({ complete: () => seen.push('late complete') })
    const failed = fanOut<number>()
    failed.error(new Error('boom'))
    failed.next(2)
    failed.subscribe({ error: (e: Error) => seen.push(`late ${e.message}`) })
    expect(seen).toEqual(['complete', 'late complete', 'late boom'])
  })
})
