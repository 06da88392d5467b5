import { concat, defer, finalize, from, Observable } from 'rxjs'
import { INBOX_CHANNEL } from '../channels.js'
import { databaseError } from '../db/databaseErrors.js'
import type { PostgresPool } from '../db/pgTypes.js'
import { PAGE, serialReads, wakeReads } from '../db/serialReads.js'
import { acquireSharedHub } from '../db/sharedHub.js'
import { withConnection } from '../db/timeouts.js'
import { checkRemoteEdit, checkRemoteSend, type PendingRemoteRequest } from '../rows/pendingRemoteRequests.js'
import { REMOTE_EDIT_OPS } from '../rows/remoteEditRecord.js'
import { REMOTE_SEND_OP } from '../rows/remoteSendRecord.js'

/**
 * For the owner of `sessionId` (R55, R58): the remote requests (sends and edits) that were
 * waiting when it read the session (`pending`), then each one stored after journal number
 * `afterSeq`, as it commits, in journal order. Woken by the sender's notification and, as the
 * fallback, every `pollMs`; the sessions a process owns on one pool share one LISTEN connection.
 * A failed read ends it with its `SessionStoreError`.
 */
export const followRemoteRequests = (
  pool: PostgresPool,
  sessionId: string,
  pending: readonly PendingRemoteRequest[],
  afterSeq: number,
  ms: number,
  pollMs: number,
): Observable<PendingRemoteRequest> =>
  defer(() => {
    const shared = acquireSharedHub(pool, ms)
    const { hub } = shared
    const newer = new Observable<PendingRemoteRequest>((subscriber) => {
      let after = afterSeq
      const reads = serialReads(
        async () => {
          const { rows } = await withConnection(pool, ms, (query) =>
            query(
              `SELECT seq, op, record FROM steerable_inbox
               WHERE session_id = $1 AND seq > $2 AND op = ANY($3::text[]) ORDER BY seq LIMIT $4`,
              [sessionId, after, [REMOTE_SEND_OP, ...REMOTE_EDIT_OPS], PAGE],
            ),
          ).catch((error: unknown) => {
            throw databaseError(sessionId, 'read its remote sends', error)
          })
          for (const row of rows) {
            if (subscriber.closed) return false
            const seq = Number(row.seq)
            after = seq
            const read = { seq, op: String(row.op), record: row.record }
            subscriber.next(
              read.op === REMOTE_SEND_OP
                ? { seq, record: checkRemoteSend(sessionId, read) }
                : { seq, record: checkRemoteEdit(sessionId, read) },
            )
          }
          return rows.length === PAGE
        },
        (error) => subscriber.error(error),
      )
      return wakeReads(reads, hub, INBOX_CHANNEL, sessionId, pollMs)
    })
    return concat(from(pending), newer).pipe(finalize(() => shared.release()))
  })
