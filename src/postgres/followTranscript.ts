import { Observable } from 'rxjs'
import type { SessionEvent } from '../contracts/events.js'
import { deepFreeze } from '../messages/snapshot.js'
import { checkEvent } from '../session/sessionEventSchema.js'
import { SessionStoreError } from '../session/storeErrors.js'
import { databaseError, sessionLabel } from './databaseErrors.js'
import type { NotificationHub } from './notificationHub.js'
import type { PostgresPool } from './pgTypes.js'
import { withConnection } from './timeouts.js'
import { EVENTS_CHANNEL } from './writeCheckpoint.js'

/** How many events one read fetches at most. */
const PAGE = 500

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
    let reading = false
    let again = false
    let stopped = false

    const read = async (): Promise<void> => {
      const { rows } = await withConnection(pool, ms, (query) =>
        query(
          'SELECT event FROM steerable_events WHERE session_id = $1 AND seq >= $2 ORDER BY seq LIMIT $3',
          [sessionId, next, PAGE],
        ),
      ).catch((error: unknown) => {
        throw databaseError(sessionId, 'read its transcript', error)
      })
      for (const row of rows) {
        if (stopped) return
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
      if (rows.length === PAGE) again = true
    }
    /** One read at a time; a wake during a read reads once more after it. */
    const wake = () => {
      if (stopped) return
      if (reading) {
        again = true
        return
      }
      reading = true
      again = false
      read().then(
        () => {
          reading = false
          if (again) wake()
        },
        (error: unknown) => {
          stopped = true
          subscriber.error(error)
        },
      )
    }
    const unlisten = hub.listen(EVENTS_CHANNEL, sessionId, wake)
    const timer = setInterval(wake, pollMs)
    wake()
    return () => {
      stopped = true
      clearInterval(timer)
      unlisten()
    }
  })
