// In owner/, not rows/: it writes on the lease's connection; the rows it writes are rows/checkpointRows.

import type { SessionEvent } from '../../contracts/events.js'
import type { InboxRecord } from '../../contracts/inbox.js'
import { EVENTS_CHANNEL } from '../channels.js'
import { LeaseLostError } from '../db/databaseErrors.js'
import { type CheckpointRows, checkpointRows } from '../rows/checkpointRows.js'
import type { SessionLease } from './sessionLease.js'

/**
 * Writes one checkpoint of `sessionId` as one transaction on the lease's connection (R53): the
 * events, then the inbox records, numbered next in the session's journal. The transaction first
 * checks that the session's epoch is still the lease's (R54): when another process took the
 * session over meanwhile, it writes nothing and fails with `LeaseLostError`. Followers of the
 * session (transcripts, outcomes) are notified when it commits.
 *
 * `remoteApplied` is the journal number of the last remote edit the owner applied before it
 * handed these events and records over: written in the same transaction as what the edit did,
 * so a new owner neither applies it again nor misses it (see `pendingRemoteRequests`).
 *
 * The rows are `checkpointRows`: an `add` whose message is already in the journal is not added
 * again. Journal rows that were waiting work (`pending`: a remote send, a queued `add`, a remote
 * edit) and that this checkpoint answers (added, settled, delivered, applied) are cleared.
 */
export const writeCheckpoint = async (
  lease: SessionLease,
  sessionId: string,
  events: readonly SessionEvent[],
  records: readonly InboxRecord[],
  remoteApplied: number,
): Promise<void> => {
  const { query, epoch } = lease
  await lease.transaction(async () => {
    try {
      await query('BEGIN')
      const { rows } = await query(
        `UPDATE steerable_sessions
         SET inbox_seq = inbox_seq + $3, remote_applied = greatest(remote_applied, $4), updated_at = now()
       WHERE id = $1 AND epoch = $2 RETURNING inbox_seq, epoch, remote_applied`,
        [sessionId, epoch, records.length, remoteApplied],
      )
      if (rows.length === 0)
        throw new LeaseLostError(`another process took the session over (this process had epoch ${epoch})`)
      const columns = checkpointRows(events, records)
      if (events.length > 0)
        await query(
          `INSERT INTO steerable_events (session_id, seq, epoch, event)
         SELECT $1, s, $2, e FROM unnest($3::int[], $4::json[]) AS t(s, e)`,
          [sessionId, epoch, columns.eventSeqs, columns.events],
        )
      await insertJournalRows(query, sessionId, Number(rows[0]!.inbox_seq) - records.length, epoch, columns)
      // The waiting work this checkpoint answers waits no longer (the partial index keeps this
      // cheap), in the statement that notifies followers: no round trip of its own.
      await query(
        `WITH answered AS (
           UPDATE steerable_inbox SET pending = false
           WHERE session_id = $1 AND pending AND (
             (op = 'send' AND message_id = ANY($2::text[])) OR (op = 'add' AND message_id = ANY($3::text[]))
             OR (op LIKE 'remote-%' AND seq <= $4)))
         SELECT pg_notify($5, $1)`,
        [
          sessionId,
          columns.sendsAnswered,
          columns.addsAnswered,
          Number(rows[0]!.remote_applied),
          EVENTS_CHANNEL,
        ],
      )
      await query('COMMIT')
    } catch (error) {
      if (!lease.lost)
        await query('ROLLBACK').catch(() =>
          lease.abandon('a failed checkpoint could not be rolled back', error),
        )
      throw error
    }
  })
}

/**
 * Inserts the journal records of `columns` numbered after `after`, each flagged `pending` when it
 * is waiting work; an `add` of a message the journal holds already is not added again.
 */
export const insertJournalRows = async (
  query: SessionLease['query'],
  sessionId: string,
  after: number,
  epoch: number,
  columns: Pick<CheckpointRows, 'ops' | 'messageIds' | 'records' | 'pending'>,
): Promise<void> => {
  if (columns.ops.length === 0) return
  await query(
    `INSERT INTO steerable_inbox (session_id, seq, op, message_id, epoch, record, pending)
     SELECT $1, $2::bigint + n, op, id, $3, r, p
       FROM unnest($4::text[], $5::text[], $6::json[], $7::boolean[]) WITH ORDINALITY AS t(op, id, r, p, n)
     ON CONFLICT (session_id, op, message_id) WHERE message_id IS NOT NULL DO NOTHING`,
    [sessionId, after, epoch, columns.ops, columns.messageIds, columns.records, columns.pending],
  )
}
