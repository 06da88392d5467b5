import type { SettledReason, TurnEndReason } from '../contracts/events.js'
import type { Turn } from './activity.js'
import { dueAfterTurn } from './compaction.js'
import { settleContexts } from './outbox.js'
import { unpause } from './pause.js'
import type { Reduction } from './reduction.js'
import { expireGuarded } from './waiting.js'

/**
 * Ends a turn: the window closes immediately before `turn/end` (R19); steering guarded for this
 * turn expires (R49); staged context is settled (V1, R13c); `settled` follows unless a retry turn is pending (R24); then the checkpoint (R36).
 */
export const closeTurn = (r: Reduction, turn: Turn, reason: TurnEndReason, error?: unknown): void => {
  unpause(r)
  r.set({ window: false, activity: { kind: 'between', id: turn.id, checkpointed: false } })
  r.durable({ type: 'turn/end', data: { turn: turn.turn, reason } })
  dueAfterTurn(r)
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
    case 'budget':
    case 'max-steps':
      return { kind: 'completed' }
    case 'aborted':
    case 'disposed':
      return { kind: 'aborted' }
    case 'error':
      return { kind: 'error', error }
  }
}

/**
 * R64: `dispose()` of a paused turn writes nothing for it (no results, no `step/end`, no
 * `turn/end`), so the session reopens paused (R65). Staged context stays where the inbox journal
 * has it, to be restored with the pause; appended now it would sit between the step's calls and
 * their results. It stays staged here too, so its `outcome()` waits as an item a release keeps
 * does. Without a journal there is nothing to restore it from, so it is appended.
 */
export const suspendTurn = (r: Reduction, turn: Turn): void => {
  unpause(r)
  r.set({ window: false, activity: { kind: 'between', id: turn.id, checkpointed: false } })
  if (r.state.journaling) r.set({ suspended: true })
  r.live({ type: 'agent/settled', agentId: r.state.agentId, turn: turn.turn, reason: { kind: 'aborted' } })
  r.effect({ kind: 'checkpoint', activity: turn.id })
}

/** The turn waits for a person: approvals pending (R61) or its budget passed (R80). */
export const isPausedTurn = (turn: Turn): boolean =>
  turn.phase === 'budget-paused' || (turn.approvals?.includes('pending') ?? false)
