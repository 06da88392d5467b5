import type { PostgresClient } from '../db/pgTypes.js'

/** A session that has work waiting, with the number of its last journal row. */
export type SessionWithWork = { readonly id: string; readonly inboxSeq: number }

/**
 * The sessions whose journal holds a message that may wake a driver and is not settled or in the
 * transcript (R57): a remote send no owner applied yet (no `add` for its id), or an item an owner
 * added as `queued` and never delivered (its owner died or released it), or a remote edit no owner
 * applied yet (a remote promote may make a parked item wake; a cancel with no owner that found
 * the lease taken is left to the owner, which may be releasing). `limit` of them, those
 * with the oldest changes first. Parked and staged items alone never wake a driver; a session
 * that only holds those is found again and again, so the worker remembers each session's
 * `inboxSeq` when it found nothing to do there (see `createWorker`).
 */
export const sessionsWithWork = async (
  query: PostgresClient['query'],
  limit: number,
): Promise<SessionWithWork[]> => {
  const { rows } = await query(
    `SELECT s.id, s.inbox_seq FROM steerable_sessions s
     WHERE EXISTS (
       SELECT 1 FROM steerable_inbox i
       WHERE i.session_id = s.id AND i.message_id IS NOT NULL
         AND (
           (i.op = 'send' AND NOT EXISTS (
             SELECT 1 FROM steerable_inbox a
             WHERE a.session_id = i.session_id AND a.op = 'add' AND a.message_id = i.message_id))
           OR (i.op = 'add' AND i.record->>'placement' = 'queued'))
         AND NOT EXISTS (
           SELECT 1 FROM steerable_inbox d
           WHERE d.session_id = i.session_id AND d.op = 'settle' AND d.record->>'id' = i.message_id)
         AND NOT EXISTS (
           SELECT 1 FROM steerable_events e
           WHERE e.session_id = i.session_id AND e.event->'data'->>'id' = i.message_id))
     OR EXISTS (
       SELECT 1 FROM steerable_inbox r
       WHERE r.session_id = s.id AND r.op LIKE 'remote-%' AND r.seq > s.remote_applied)
     ORDER BY s.updated_at
     LIMIT $1`,
    [limit],
  )
  return rows.map((row) => ({ id: String(row.id), inboxSeq: Number(row.inbox_seq) }))
}
