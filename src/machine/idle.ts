import type { Reduction } from './reduction.js'

export const goIdle = (r: Reduction): void => {
  if (r.state.status === 'idle') return
  r.set({ status: 'idle' })
  r.live({ type: 'agent/status', agentId: r.state.agentId, status: 'idle' })
}
