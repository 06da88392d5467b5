import { TestScheduler } from 'rxjs/testing'
import { describe, expect, it } from 'vitest'
import { boundWaits } from '../../src/adapterKit/boundWaits.js'
import type { WaitName } from '../../src/adapterKit/waitLimits.js'

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected))
const limits = { headersTimeoutMs: 5, idleTimeoutMs: 4 }
/** The adapter's error for a wait that ran out: here, one that names the wait. */
const timeoutError = (wait: WaitName) => ({ expired: wait })
const timedOut = (wait: WaitName) => ({ expired: wait })

describe('boundWaits (virtual time)', () => {
  it('parts that keep coming pass through; completion unsubscribes', () => {
    const s = scheduler()
    s.run(({ cold, expectObservable, expectSubscriptions }) => {
      // prettier-ignore
      const parts$ = cold('----h---e---e---|')
      expectObservable(parts$.pipe(boundWaits(limits, timeoutError, s))).toBe('----h---e---e---|')
      expectSubscriptions(parts$.subscriptions).toBe('^---------------!')
    })
  })

  it('no first part within headersTimeoutMs errors naming headersTimeoutMs and unsubscribes', () => {
    const s = scheduler()
    s.run(({ cold, expectObservable, expectSubscriptions }) => {
      const parts$ = cold('-------h|')
      expectObservable(parts$.pipe(boundWaits(limits, timeoutError, s))).toBe(
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
      expectObservable(parts$.pipe(boundWaits(limits, timeoutError, s))).toBe(
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
      expectObservable(cold('--h-#', undefined, 'cancelled').pipe(boundWaits(limits, timeoutError, s))).toBe(
        '--h-#',
        undefined,
        'cancelled',
      )
    })
  })
})
