import type { InputOf } from './inputs.js'
import type { Reduction } from './reduction.js'
import { activeWork } from './state.js'

/** R40: a store failure outside a checkpoint, reported at the current position (or 0). */
export const storeFailed = (r: Reduction, { error }: InputOf<'store/failed'>): void => {
  const work = activeWork(r.state)
  const turn = work?.turn ?? 0
  const step = work?.kind === 'turn' ? work.step : 0
  r.live({ type: 'agent/error', agentId: r.state.agentId, turn, step, error })
}
