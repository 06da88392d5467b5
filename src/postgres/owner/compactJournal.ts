// In owner/, not rows/: it writes on the lease's connection; what it writes is rows/compactedJournal.

import { LeaseLostError } from '../db/databaseErrors.js'
import { readSession, type SessionRows } from '../db/readSession.js'
import { checkpointRows } from '../rows/checkpointRows.js'
import { compactedJournal } from '../rows/compactedJournal.js'
import { type DecodedSession, decodeSession } from '../rows/decodeSession.js'
import type { SessionLease } from './sessionLease.js'
import { insertJournalRows } from './writeCheckpoint.js'

/** Reads `sessionId` on its lease's connection, checks it (R37), and compacts its journal. */
export const readCompacted = async (lease: SessionLease, sessionId: string): Promise<DecodedSession> => {
  const rows = await readSession(lease.query, sessionId)
  return compactJournal(lease, sessionId, rows, decodeSession(sessionId, rows))
}

/**
 * Compacts the inbox journal of `sessionId` when its new owner has read it (`rows`, decoded as
 * `session`), as a file store compacts its journal on open: one transaction on the lease's
 * connection that checks the epoch (R54), deletes the rows `compactedJournal` removes (by number:
 * rows stored since the read stay) and writes the compacted records after the journal's last
 * number. A failure writes nothing. Returns the session as the store holds it from then on: its
 * records are the compacted ones (they fold to the same inbox).
 */
export const compactJournal = async (
  lease: SessionLease,
  sessionId: string,
  rows: SessionRows,
  session: DecodedSession,
): Promise<DecodedSession> => {
  const compaction = compactedJournal(rows.journal, session)
  if (!compaction) return session
  const { query, epoch } = lease
  await lease.transaction(async () => {
    try {
      await query('BEGIN')
      const taken = await query(
        `UPDATE steerable_sessions SET inbox_seq = inbox_seq + $3
         WHERE id = $1 AND epoch = $2 RETURNING inbox_seq`,
        [sessionId, epoch, compaction.records.length],
      )
      if (taken.rows.length === 0)
        throw new LeaseLostError(`another process took the session over (this process had epoch ${epoch})`)
      await query('DELETE FROM steerable_inbox WHERE session_id = $1 AND seq = ANY($2::bigint[])', [
        sessionId,
        compaction.remove,
      ])
      const after = Number(taken.rows[0]!.inbox_seq) - compaction.records.length
      await insertJournalRows(query, sessionId, after, epoch, checkpointRows([], compaction.records))
      await query('COMMIT')
    } catch (error) {
      if (!lease.lost)
        await query('ROLLBACK').catch(() =>
          lease.abandon('a failed compaction could not be rolled back', error),
        )
      throw error
    }
  })
  return { ...session, records: compaction.records }
}
