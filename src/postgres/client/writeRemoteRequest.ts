import type { AgentMessageId } from '../../contracts/messages.js'
import { INBOX_CHANNEL } from '../channels.js'
import type { PostgresPool } from '../db/pgTypes.js'
import { withConnection } from '../db/timeouts.js'
import type { RemoteEditRecord } from '../rows/remoteEditRecord.js'
import { REMOTE_SEND_OP, type RemoteSendRecord } from '../rows/remoteSendRecord.js'

/**
 * Appends a remote send to the inbox journal of `sessionId` (creating the session's row when
 * there is none) as one statement, so it is durable when this resolves. Its number is the next
 * in the session's journal: taking it locks the session's row until the commit, so rows commit
 * in the order of their numbers. A send stored already (a retry after an unclear commit) is not
 * stored again. The owner is notified. The row is flagged `pending`, waiting work for a worker's
 * scan, until the owner's checkpoint that applies it.
 */
export const writeRemoteSend = async (
  pool: PostgresPool,
  sessionId: string,
  record: RemoteSendRecord,
  ms: number,
): Promise<AgentMessageId> => {
  await writeRemoteRequest(pool, sessionId, REMOTE_SEND_OP, record.message.id, record, ms)
  return record.message.id
}

/**
 * Appends a remote edit (R55, R58) to the journal as `writeRemoteSend` does a send, keyed by its
 * request id (stored once however often it is retried); resolves with its journal number.
 */
export const writeRemoteEdit = (
  pool: PostgresPool,
  sessionId: string,
  record: RemoteEditRecord,
  ms: number,
): Promise<number> => writeRemoteRequest(pool, sessionId, record.op, record.request, record, ms)

/**
 * Appends a remote request, a send or an edit, to the journal of `sessionId` under `op`, keyed by
 * `key` (the message id of a send, the request id of an edit); resolves with its journal number.
 */
export const writeRemoteRequest = (
  pool: PostgresPool,
  sessionId: string,
  op: string,
  key: string,
  record: RemoteSendRecord | RemoteEditRecord,
  ms: number,
): Promise<number> =>
  withConnection(pool, ms, async (query) => {
    const { rows } = await query(
      `WITH session AS (
         INSERT INTO steerable_sessions (id, inbox_seq) VALUES ($1, 1)
         ON CONFLICT (id) DO UPDATE SET inbox_seq = steerable_sessions.inbox_seq + 1, updated_at = now()
         RETURNING inbox_seq
       ), row AS (
         INSERT INTO steerable_inbox (session_id, seq, op, message_id, record, pending)
         SELECT $1, inbox_seq, $2, $3, $4::json, true FROM session
         ON CONFLICT (session_id, op, message_id) WHERE message_id IS NOT NULL DO NOTHING
         RETURNING seq
       )
       SELECT pg_notify($5, $1), (SELECT seq FROM row) AS seq`,
      [sessionId, op, key, JSON.stringify(record), INBOX_CHANNEL],
    )
    if (rows[0]?.seq != null) return Number(rows[0].seq)
    // Stored already (a retry after an unclear commit): its number is the first write's.
    const stored = await query(
      'SELECT seq FROM steerable_inbox WHERE session_id = $1 AND op = $2 AND message_id = $3',
      [sessionId, op, key],
    )
    return Number(stored.rows[0]?.seq)
  })
