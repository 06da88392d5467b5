import type { Reduction } from './reduction.js'

/** The turn waits for a person (R61, R80): `agent/status` says so. */
export const pause = (r: Reduction): void => {
  if (r.state.status === 'paused') return
  r.set({ status: 'paused' })
  r.live({ type: 'agent/status', agentId: r.state.agentId, status: 'paused' })
}

export const unpause = (r: Reduction): void => {
  if (r.state.status !== 'paused') return
  r.set({ status: 'running' })
  r.live({ type: 'agent/status', agentId: r.state.agentId, status: 'running' })
}
