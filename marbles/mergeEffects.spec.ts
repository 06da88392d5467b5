import type { Observable } from 'rxjs'
import { describe, it } from 'vitest'
import type { Effect } from '../src/machine/effects.js'
import type { Signal } from '../src/machine/inputs.js'
import { type EffectAnswer, mergeEffects } from '../src/runtime/mergeEffects.js'
import { marbles } from './operators/fixtures.js'

/** Effects named by a letter (a `post` carrying `advance` with that activity number). */
const effect = (activity: number): Effect => ({ kind: 'post', input: { type: 'advance', activity } })
const signal = (activity: number): Signal => ({ type: 'advance', activity })
const e = { a: effect(1), b: effect(2), c: effect(3), d: effect(4), x: effect(9) }
const s = { A: signal(1), B: signal(2), D: signal(4), E: signal(5) }

/** a: at once; b: later, by `later$`; c: nothing; d: two signals at once (D then E); x: throws. */
const runner =
  (later$: Observable<Signal>) =>
  (fx: Effect): EffectAnswer => {
    const activity = fx.kind === 'post' && fx.input.type === 'advance' ? fx.input.activity : 0
    if (activity === 1) return s.A
    if (activity === 2) return later$
    if (activity === 4) return [s.D, s.E]
    if (activity === 9) throw new Error('runner defect')
    return undefined
  }

describe('mergeEffects (the effect runner wiring)', () => {
  // biome-ignore format: marble alignment
  it('answers known at once are emitted in the same frame, in order; nothing is emitted for none', marbles((m) => {
    const effects = m.hot('--a--c--d---|', e)
    const expected =      '--A-----(DE)|'
    m.expect(effects.pipe(mergeEffects(runner(m.cold('-|'))))).toBeObservable(expected, s)
  }))

  // biome-ignore format: marble alignment
  it('an Observable answer is followed, and completion waits for it', marbles((m) => {
    const later$ = m.cold(  '---B|', s)
    const effects = m.hot('-b-a|', e)
    const expected =      '---AB|'
    const subs =          '-^---!'
    m.expect(effects.pipe(mergeEffects(runner(later$)))).toBeObservable(expected, s)
    m.expect(later$).toHaveSubscriptions(subs)
  }))

  // biome-ignore format: marble alignment
  it('unsubscribing unsubscribes the pending answers', marbles((m) => {
    const later$ = m.cold(  '-----B|', s)
    const effects = m.hot('-b--------|', e)
    const unsub =         '---!'
    m.expect(effects.pipe(mergeEffects(runner(later$))), unsub).toBeObservable('----', s)
    m.expect(later$).toHaveSubscriptions('-^-!')
  }))

  // biome-ignore format: marble alignment
  it('a throwing runner errors the output (a defect, not a path)', marbles((m) => {
    const effects = m.hot('-a-x-a|', e)
    const expected =      '-A-#'
    m.expect(effects.pipe(mergeEffects(runner(m.cold('-|'))))).toBeObservable(expected, s, new Error('runner defect'))
  }))
})
