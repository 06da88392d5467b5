import type { InputOf } from './inputs.js'
import type { Reduction } from './reduction.js'

/**
 * `rollback(turns)` (R77): one durable event, flushed at once as any append outside a turn is
 * (R36). The façade checked that nothing runs; a rollback that meets work (a wake claimed in the
 * same stack) changes nothing. The inbox is untouched, and turn numbers go on increasing.
 */
export const rollback = (r: Reduction, { toTurn }: InputOf<'rollback'>): void => {
  const s = r.state
  if (s.activity !== null || s.disposal !== 'none' || s.status !== 'idle') return
  r.durable({ type: 'rollback', data: { toTurn } })
  r.effect({ kind: 'persist' })
}
