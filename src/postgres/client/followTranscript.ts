import { Observable } from 'rxjs'
import type { SessionEvent } from '../../contracts/events.js'
import { deepFreeze } from '../../messages/snapshot.js'
import { checkEvent } from '../../session/sessionEventSchema.js'
import { SessionStoreError } from '../../session/storeErrors.js'
import { EVENTS_CHANNEL } from '../channels.js'
import { databaseError, sessionLabel } from '../db/databaseErrors.js'
import type { NotificationHub } from '../db/notificationHub.js'
import type { PostgresPool } from '../db/pgTypes.js'
import { PAGE, serialReads } from '../db/serialReads.js'
import { withConnection } from '../db/timeouts.js'

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
  new Observable<SessionEvent>((subscriber) => {
    let next = 1
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
        for (const row of rows) {
          if (subscriber.closed) return false
          const problem = checkEvent(row.event, next - 1)
          if (problem) {
            const label = sessionLabel(sessionId)
            throw new SessionStoreError(
              label,
              `${label}: event row ${next} is not a valid event (${problem.message})`,
            )
          }
          next++
          subscriber.next(deepFreeze(row.event as SessionEvent))
        }
        return rows.length === PAGE
      },
      (error) => subscriber.error(error),
    )
    const unlisten = hub.listen(EVENTS_CHANNEL, sessionId, reads.wake)
    const timer = setInterval(reads.wake, pollMs)
    reads.wake()
    return () => {
      reads.stop()
      clearInterval(timer)
      unlisten()
    }
  })
