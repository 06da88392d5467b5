import type { PostgresClient } from '../db/pgTypes.js'

/** A session that has work waiting, with the number of its last journal row. */
export type SessionWithWork = { readonly id: string; readonly inboxSeq: number }

/**
 * The sessions whose journal holds a row of waiting work (R57): a remote send no owner applied yet
 * (no `add` or settlement for its id, not in the transcript), an item an owner added as `queued`
 * and never delivered or settled (its owner died or released it), or a remote edit no owner
 * applied yet (a remote promote may make a parked item wake; a cancel with no owner that found
 * the lease taken is left to the owner, which may be releasing). `limit` of them, those with the
 * oldest changes first.
 *
 * Each such row carries the `pending` flag (set when written, cleared by the checkpoint that
 * answers it: see `writeCheckpoint`), so the scan reads the flagged rows through their partial
 * index and costs what waits, not what the sessions hold (docs/performance.md#finding-waiting-work).
 * Parked and staged items alone never wake a driver; a session that only holds those is found
 * again and again, so the worker remembers each session's `inboxSeq` when it found nothing to do
 * there (see `createWorker`).
 */
export const sessionsWithWork = async (
  query: PostgresClient['query'],
  limit: number,
): Promise<SessionWithWork[]> => {
  const { rows } = await query(
    `SELECT s.id, s.inbox_seq FROM steerable_sessions s
     WHERE s.id IN (SELECT i.session_id FROM steerable_inbox i WHERE i.pending)
     ORDER BY s.updated_at
     LIMIT $1`,
    [limit],
  )
  return rows.map((row) => ({ id: String(row.id), inboxSeq: Number(row.inbox_seq) }))
}
