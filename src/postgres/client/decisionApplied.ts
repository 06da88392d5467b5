import { EMPTY, mergeMap, Observable, throwError } from 'rxjs'
import { ApprovalNotPendingError } from '../../contracts/errors.js'
import { EVENTS_CHANNEL } from '../channels.js'
import { databaseError } from '../db/databaseErrors.js'
import type { NotificationHub } from '../db/notificationHub.js'
import type { PostgresPool } from '../db/pgTypes.js'
import { serialReads, wakeReads } from '../db/serialReads.js'
import { withConnection } from '../db/timeouts.js'
import type { RemoteEditRecord } from '../rows/remoteEditRecord.js'

/** Where a client reads the calls that wait, and why the one it named may not have. */
const REMOTE_HINT =
  'session.approvals$ lists the calls that wait (a call is decided once: by a person, in any process, ' +
  "by its approval timeout or by a send with onApproval: 'deny'; a cancel ends the wait)"

/** A decision this client stored: its journal row and what it asked. */
export type StoredDecision = {
  readonly seq: number
  readonly record: Extract<RemoteEditRecord, { op: 'remote-decide' }>
}

/** Where the reads go, and how often they look when no notification came. */
export type Reads = {
  readonly pool: PostgresPool
  readonly hub: NotificationHub
  readonly sessionId: string
  readonly ms: number
  readonly pollMs: number
}

/**
 * What the owner did with a request this client stored as journal row `seq` (a decision, R65, or a
 * tool call's cancel, R71), once it is durable: emits `true` and completes when the request was
 * applied, `false` when it settled refused under its id `request` (the call was not pending, or
 * not running, when the owner reached the row); errors with `SessionStoreError` when a read fails.
 * The owner records how far it applied the remote rows (`remote_applied`) in the checkpoint that
 * holds what the request did, and a refusal's settlement in that checkpoint or an earlier one: one
 * read of both says which. Woken at each checkpoint, and every `pollMs`.
 */
export const requestApplied = (
  { pool, hub, sessionId, ms, pollMs }: Reads,
  seq: number,
  request: string,
  what: string,
): Observable<boolean> =>
  new Observable<boolean>((subscriber) => {
    const reads = serialReads(
      async () => {
        const { rows } = await withConnection(pool, ms, (query) =>
          query(
            `SELECT s.remote_applied, EXISTS (
               SELECT 1 FROM steerable_inbox i
               WHERE i.session_id = s.id AND i.op = 'settle' AND i.record->>'id' = $2
             ) AS refused
             FROM steerable_sessions s WHERE s.id = $1`,
            [sessionId, request],
          ),
        ).catch((error: unknown) => {
          throw databaseError(sessionId, `read whether ${what} was applied`, error)
        })
        const row = rows[0] as { remote_applied?: unknown; refused?: unknown } | undefined
        const refused = row?.refused === true
        if (refused || Number(row?.remote_applied ?? 0) >= seq) {
          subscriber.next(!refused)
          subscriber.complete()
        }
        return false
      },
      (error) => subscriber.error(error),
    )
    return wakeReads(reads, hub, EVENTS_CHANNEL, sessionId, pollMs)
  })

/**
 * What the owner did with a decision this client stored (R65): completes when it was applied,
 * errors with `ApprovalNotPendingError` when it settled refused, with `SessionStoreError` when a
 * read fails (see `requestApplied`).
 */
export const decisionApplied = (reads: Reads, { seq, record }: StoredDecision): Observable<never> =>
  requestApplied(reads, seq, record.request, `the decision on ${record.callId}`).pipe(
    mergeMap((applied) => {
      if (applied) return EMPTY
      const call = record.decision === 'approved' ? 'approve()' : 'deny()'
      return throwError(() => new ApprovalNotPendingError(call, record.callId, REMOTE_HINT))
    }),
  )
