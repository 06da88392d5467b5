import { concatMap, from, Observable } from 'rxjs'
import type { SessionEvent } from '../../contracts/events.js'
import { deepFreeze } from '../../messages/snapshot.js'
import { checkEvent } from '../../session/sessionEventSchema.js'
import { SessionStoreError } from '../../session/storeErrors.js'
import { EVENTS_CHANNEL } from '../channels.js'
import { databaseError, sessionLabel } from '../db/databaseErrors.js'
import type { NotificationHub } from '../db/notificationHub.js'
import type { PostgresPool } from '../db/pgTypes.js'
import { PAGE, serialReads, wakeReads } from '../db/serialReads.js'
import { withConnection } from '../db/timeouts.js'

/** The events one read of a transcript found; `more`: the read filled a page, so more are stored. */
export type TranscriptRead = { readonly events: readonly SessionEvent[]; readonly more: boolean }

/**
 * The committed events of `sessionId` from seq 1, then each new one as it commits (R56): read in
 * pages, woken by the owner's notification at each checkpoint and, as the fallback, every
 * `pollMs`. Events are checked as a store checks them on open and deep-frozen (R38). A failed
 * read ends the stream with its `SessionStoreError`; subscribing again replays from seq 1.
 */
export const followTranscript = (
  pool: PostgresPool,
  hub: NotificationHub,
  sessionId: string,
  ms: number,
  pollMs: number,
): Observable<SessionEvent> =>
  followTranscriptReads(pool, hub, sessionId, ms, pollMs).pipe(concatMap((read) => from(read.events)))

/**
 * `followTranscript` read by read: each read that found events, and, until one has said `more:
 * false`, each read even when it found none, so a follower knows when it has caught up with what
 * was stored when it subscribed.
 */
export const followTranscriptReads = (
  pool: PostgresPool,
  hub: NotificationHub,
  sessionId: string,
  ms: number,
  pollMs: number,
): Observable<TranscriptRead> =>
  new Observable<TranscriptRead>((subscriber) => {
    let next = 1
    let caughtUp = false
    const reads = serialReads(
      async () => {
        const { rows } = await withConnection(pool, ms, (query) =>
          query(
            'SELECT event FROM steerable_events WHERE session_id = $1 AND seq >= $2 ORDER BY seq LIMIT $3',
            [sessionId, next, PAGE],
          ),
        ).catch((error: unknown) => {
          throw databaseError(sessionId, 'read its transcript', error)
        })
        const events: SessionEvent[] = []
        let invalid: SessionStoreError | undefined
        for (const row of rows) {
          const problem = checkEvent(row.event, next - 1)
          if (problem) {
            const label = sessionLabel(sessionId)
            invalid = new SessionStoreError(
              label,
              `${label}: event row ${next} is not a valid event (${problem.message})`,
            )
            break
          }
          next++
          events.push(deepFreeze(row.event as SessionEvent))
        }
        // The events before an invalid one are delivered, then the stream ends with its error.
        const more = rows.length === PAGE && !invalid
        if (!subscriber.closed && (events.length > 0 || !caughtUp)) subscriber.next({ events, more })
        caughtUp = !more
        if (invalid) throw invalid
        return more && !subscriber.closed
      },
      (error) => subscriber.error(error),
    )
    return wakeReads(reads, hub, EVENTS_CHANNEL, sessionId, pollMs)
  })
