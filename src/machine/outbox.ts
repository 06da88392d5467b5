import type { Tx } from './reduction.js'
import type { OutboxEntry } from './state.js'

/**
 * Writes outbox entries into the transcript in acceptance order (R12, R20): steering publishes
 * its `dequeue` and becomes a `steering/message` of the turn; context becomes a `user/message`.
 * Returns whether any steering was written.
 */
export const writeEntries = (tx: Tx, entries: readonly OutboxEntry[], turn: number): boolean => {
  let steering = false
  for (const entry of entries) {
    if (entry.kind === 'steering') {
      steering = true
      const { id, content, source } = entry.message
      tx.live({ type: 'agent/inbox/dequeue', agentId: tx.state.agentId, message: entry.message })
      tx.durable({ type: 'steering/message', data: { turn, content, source, id } })
    } else {
      tx.durable({ type: 'user/message', data: entry.data })
    }
  }
  return steering
}

/** Drains the whole outbox into the current turn (R20). Returns whether it held steering. */
export const drainOutbox = (tx: Tx, turn: number): boolean => {
  const entries = tx.state.outbox
  if (entries.length === 0) return false
  tx.set({ outbox: [] })
  return writeEntries(tx, entries, turn)
}

/**
 * Appends staged context outside any turn (R13, V1), but only when no steering is staged: with
 * steering present the whole outbox waits for `retry()` or the next admitted prompt (R13c).
 * Returns whether anything was appended.
 */
export const settleContexts = (tx: Tx): boolean => {
  const entries = tx.state.outbox
  if (entries.length === 0 || entries.some((e) => e.kind === 'steering')) return false
  tx.set({ outbox: [] })
  for (const entry of entries) {
    if (entry.kind === 'context') tx.durable({ type: 'user/message', data: entry.data })
  }
  return true
}
