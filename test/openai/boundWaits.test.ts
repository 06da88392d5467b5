import { TestScheduler } from 'rxjs/testing'
import { describe, expect, it } from 'vitest'
import { boundWaits } from '../../src/openai/boundWaits.js'

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected))
const limits = { headersTimeoutMs: 5, idleTimeoutMs: 4 }
const timedOut = (option: string) =>
  expect.objectContaining({
    name: 'ModelRequestError',
    status: undefined,
    message: expect.stringContaining(option),
  })

describe('boundWaits (virtual time)', () => {
  it('parts that keep coming pass through; completion unsubscribes', () => {
    const s = scheduler()
    s.run(({ cold, expectObservable, expectSubscriptions }) => {
      // prettier-ignore
      const parts$ = cold('----h---e---e---|')
      expectObservable(parts$.pipe(boundWaits('u', limits, s))).toBe('----h---e---e---|')
      expectSubscriptions(parts$.subscriptions).toBe('^---------------!')
    })
  })

  it('no first part within headersTimeoutMs errors naming headersTimeoutMs and unsubscribes', () => {
    const s = scheduler()
    s.run(({ cold, expectObservable, expectSubscriptions }) => {
      const parts$ = cold('-------h|')
      expectObservable(parts$.pipe(boundWaits('u', limits, s))).toBe(
        '-----#',
        undefined,
        timedOut('headersTimeoutMs'),
      )
      expectSubscriptions(parts$.subscriptions).toBe('^----!')
    })
  })

  it('a silence of idleTimeoutMs after the first part errors naming idleTimeoutMs', () => {
    const s = scheduler()
    s.run(({ cold, expectObservable, expectSubscriptions }) => {
      // prettier-ignore
      const parts$ = cold('---h--e--e--------')
      const expected = '   ---h--e--e---#'
      expectObservable(parts$.pipe(boundWaits('u', limits, s))).toBe(
        expected,
        undefined,
        timedOut('idleTimeoutMs'),
      )
      expectSubscriptions(parts$.subscriptions).toBe('^------------!')
    })
  })

  it('a source error passes through as it is (an abort reason stays the reason)', () => {
    const s = scheduler()
    s.run(({ cold, expectObservable }) => {
      expectObservable(cold('--h-#', undefined, 'cancelled').pipe(boundWaits('u', limits, s))).toBe(
        '--h-#',
        undefined,
        'cancelled',
      )
    })
  })
})
