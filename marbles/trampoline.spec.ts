import { Subject, tap } from 'rxjs'
import { describe, it } from 'vitest'
import { trampoline } from '../src/loop/trampoline.js'
import { marbles } from './operators/fixtures.js'

/**
 * The trampoline under reentrant calls: `calls` says, per value, what a subscriber of the output
 * sends back into the source while that value is being delivered (SPEC section 4 ordering).
 */
const reentrant = (calls: Record<string, readonly string[] | 'complete'>) => {
  const input = new Subject<string>()
  const output = input.pipe(
    trampoline(),
    tap((value) => {
      const call = calls[value]
      if (call === 'complete') input.complete()
      else for (const next of call ?? []) input.next(next)
    }),
  )
  return { input, output }
}

describe('trampoline (the ordering of reentrant calls, SPEC section 4)', () => {
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
})
