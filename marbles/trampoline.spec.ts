import { Subject, tap } from 'rxjs'
import { describe, it } from 'vitest'
import { trampoline } from '../src/runtime/trampoline.js'
import { marbles } from './operators/fixtures.js'

/**
 * The trampoline under reentrant calls: `calls` says, per value, what a subscriber of the output
 * sends back into the source while that value is being delivered (docs/contract.md, section 4: ordering).
 */
const reentrant = (calls: Record<string, readonly string[] | 'complete'>, last?: (v: string) => boolean) => {
  const input = new Subject<string>()
  const output = input.pipe(
    trampoline(last),
    tap((value) => {
      const call = calls[value]
      if (call === 'complete') input.complete()
      else for (const next of call ?? []) input.next(next)
    }),
  )
  return { input, output }
}

describe('trampoline (the ordering of reentrant calls, docs/contract.md, section 4)', () => {
  // biome-ignore format: marble alignment
  it('depth-first: follow-ups of a value come before values that were already waiting', marbles((m) => {
    // a's delivery sends b and c; b's delivery sends d: a b d c, all in a's frame.
    const { input, output } = reentrant({ a: ['b', 'c'], b: ['d'] })
    m.hot(                        '--a-----e--|').subscribe(input)
    m.expect(output).toBeObservable('--(abdc)e--|')
  }))

  // biome-ignore format: marble alignment
  it('the same order on every drain: frames reused from one drain to the next start empty', marbles((m) => {
    const { input, output } = reentrant({ a: ['b', 'c'], b: ['d'], e: ['f'] })
    m.hot(                        '--a-----e---a-----|').subscribe(input)
    m.expect(output).toBeObservable('--(abdc)(ef)(abdc)|')
  }))

  // biome-ignore format: marble alignment
  it('completion during a delivery waits until the waiting values are delivered', marbles((m) => {
    const { input, output } = reentrant({ a: ['b', 'c'], b: 'complete' })
    m.hot(                        '--a--').subscribe(input)
    m.expect(output).toBeObservable('--(abc|)')
  }))

  // biome-ignore format: marble alignment
  it('at top level a value is delivered in the frame it arrives in', marbles((m) => {
    const { input, output } = reentrant({})
    m.hot(                        '-a-b-(cd)-|').subscribe(input)
    m.expect(output).toBeObservable('-a-b-(cd)-|')
  }))

  const isLast = (v: string) => v === 'L' || v === 'M'

  // biome-ignore format: marble alignment
  it('R29: a last value waits until everything else of its drain was delivered', marbles((m) => {
    // a's delivery sends L (last) and b; b's delivery sends d; L's delivery sends e.
    const { input, output } = reentrant({ a: ['L', 'b'], b: ['d'], L: ['e'] }, isLast)
    m.hot(                        '--a-------a--------|').subscribe(input)
    m.expect(output).toBeObservable('--(abdLe)-(abdLe)--|')
  }))

  // biome-ignore format: marble alignment
  it('R29: last values keep their arrival order, and one sent by a last value waits again', marbles((m) => {
    const { input, output } = reentrant({ a: ['L', 'M', 'b'], L: ['c', 'M'], M: [] }, isLast)
    m.hot(                        '--a--------|').subscribe(input)
    m.expect(output).toBeObservable('--(abLcMM)-|')
  }))

  // biome-ignore format: marble alignment
  it('a last value at top level is delivered at once, and completion waits for the tail', marbles((m) => {
    const input = new Subject<string>()
    const output = input.pipe(
      trampoline(isLast),
      tap((value) => {
        if (value !== 'a') return
        input.next('L')
        input.complete()
        input.next('b') // after complete: ignored by the Subject
      }),
    )
    m.hot(                        '--L--a--').subscribe(input)
    m.expect(output).toBeObservable('--L--(aL|)')
  }))
})
