import type { OutboxEntry } from './outboxEntry.js'
import type { Reduction } from './reduction.js'

/**
 * Writes outbox entries into the transcript in acceptance order (R12, R20): steering publishes
 * its `dequeue` and becomes a `steering/message` of the turn; context becomes a `user/message`.
 * Returns whether any steering was written.
 */
export const writeEntries = (r: Reduction, entries: readonly OutboxEntry[], turn: number): boolean => {
  let steering = false
  for (const entry of entries) {
    if (entry.kind === 'steering') {
      steering = true
      const { id, content, source } = entry.message
      r.live({ type: 'agent/inbox/dequeue', agentId: r.state.agentId, message: entry.message })
      r.durable({
        type: 'steering/message',
        data: entry.cut ? { turn, content, source, id, interrupt: true } : { turn, content, source, id },
      })
    } else {
      r.durable({ type: 'user/message', data: entry.data })
    }
  }
  return steering
}

/** Drains the whole outbox into the current turn (R20). Returns whether it held steering. */
export const drainOutbox = (r: Reduction, turn: number): boolean => {
  const entries = r.state.outbox
  if (entries.length === 0) return false
  r.set({ outbox: [] })
  return writeEntries(r, entries, turn)
}

/**
 * Appends staged context outside any turn (R13, V1), but only when no steering is staged: with
 * steering present the whole outbox waits for `retry()` or the next admitted prompt (R13c).
 * Returns whether anything was appended.
 */
export const settleContexts = (r: Reduction): boolean => {
  const entries = r.state.outbox
  if (entries.length === 0 || entries.some((e) => e.kind === 'steering')) return false
  r.set({ outbox: [] })
  for (const entry of entries) {
    if (entry.kind === 'context') r.durable({ type: 'user/message', data: entry.data })
  }
  return true
}
