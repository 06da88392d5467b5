import type { SettledReason, TurnEndReason } from '../contracts/events.js'
import { settleContexts } from './outbox.js'
import type { Reduction } from './reduction.js'
import type { Turn } from './state.js'
import { expireGuarded } from './waiting.js'

/**
 * Ends a turn: the window closes immediately before `turn/end` (R19); steering guarded for this
 * turn expires (R49); staged context is settled (V1, R13c); `settled` follows unless a retry turn is pending (R24); then the checkpoint (R36).
 */
export const closeTurn = (r: Reduction, turn: Turn, reason: TurnEndReason, error?: unknown): void => {
  r.set({ window: false, activity: { kind: 'between', id: turn.id, checkpointed: false } })
  r.durable({ type: 'turn/end', data: { turn: turn.turn, reason } })
  expireGuarded(r, turn.turn)
  // R26: after a cancel with keepInbox the whole outbox is the next turn's inherited prefix.
  if (!turn.abort?.keepInbox) settleContexts(r)
  if (!(reason.kind === 'error' && r.state.retryPending)) {
    r.live({
      type: 'agent/settled',
      agentId: r.state.agentId,
      turn: turn.turn,
      reason: settledReason(reason, error),
    })
  }
  r.effect({ kind: 'checkpoint', activity: turn.id })
}

const settledReason = (reason: TurnEndReason, error: unknown): SettledReason => {
  switch (reason.kind) {
    case 'completed':
    case 'max-tokens':
      return { kind: 'completed' }
    case 'aborted':
    case 'disposed':
      return { kind: 'aborted' }
    case 'error':
      return { kind: 'error', error }
  }
}
