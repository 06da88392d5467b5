import { defer, from, merge, mergeMap, Observable, take } from 'rxjs'
import type { SessionEvent } from '../../contracts/events.js'
import type { Outcome } from '../../contracts/inbox.js'
import type { AgentMessageId } from '../../contracts/messages.js'
import { deepFreeze } from '../../messages/snapshot.js'
import { carriedId, deliveredOutcome } from '../../session/deliveredOutcome.js'
import { checkRecordLine } from '../../session/journalLine.js'
import { EVENTS_CHANNEL } from '../channels.js'
import { databaseError } from '../db/databaseErrors.js'
import type { NotificationHub } from '../db/notificationHub.js'
import type { PostgresPool } from '../db/pgTypes.js'
import { serialReads } from '../db/serialReads.js'
import { withConnection } from '../db/timeouts.js'
import { followTranscript } from './followTranscript.js'
import { unknownMessage } from './unknownMessage.js'

/**
 * What became of the message `id` in `sessionId` (R55), once the database says so: the durable
 * event that delivered it (read from the transcript as the agent reads it, R42), or the journal's
 * settlement (blocked, discarded, refused). Emits once and completes; never emits while the
 * message waits. A failed read ends it with its `SessionStoreError`. An id the database does not
 * hold (`unknownMessage`, checked once this client's own requests to the session are stored:
 * `stored`) ends it with `InvalidInputError`.
 */
export const remoteOutcome = (
  pool: PostgresPool,
  hub: NotificationHub,
  sessionId: string,
  id: AgentMessageId,
  ms: number,
  pollMs: number,
  stored: Promise<unknown>,
): Observable<Outcome> =>
  merge(
    delivered({ pool, hub, sessionId, id, ms, pollMs }),
    settled({ pool, hub, sessionId, id, ms, pollMs }),
    defer(() => from(stored)).pipe(mergeMap(() => unknownMessage(pool, sessionId, id, ms, ms))),
  ).pipe(take(1))

/** What both reads of an outcome need. */
type Where = {
  readonly pool: PostgresPool
  readonly hub: NotificationHub
  readonly sessionId: string
  readonly id: AgentMessageId
  readonly ms: number
  readonly pollMs: number
}

const delivered = ({ pool, hub, sessionId, id, ms, pollMs }: Where): Observable<Outcome> =>
  new Observable<Outcome>((subscriber) => {
    const events: SessionEvent[] = []
    let at = -1
    return followTranscript(pool, hub, sessionId, ms, pollMs).subscribe({
      next: (event) => {
        events.push(event)
        if (at < 0 && carriedId(event) === id) at = events.length - 1
        const outcome = at < 0 ? undefined : deliveredOutcome(events, at)
        if (outcome) subscriber.next(deepFreeze(outcome))
      },
      error: (error: unknown) => subscriber.error(error),
    })
  })

const settled = ({ pool, hub, sessionId, id, ms, pollMs }: Where): Observable<Outcome> =>
  new Observable<Outcome>((subscriber) => {
    const reads = serialReads(
      async () => {
        const { rows } = await withConnection(pool, ms, (query) =>
          query(
            `SELECT record FROM steerable_inbox WHERE session_id = $1 AND op = 'settle' AND record->>'id' = $2`,
            [sessionId, id],
          ),
        ).catch((error: unknown) => {
          throw databaseError(sessionId, `read the outcome of ${id}`, error)
        })
        const checked = rows[0] ? checkRecordLine(rows[0].record, 0) : undefined
        if (checked && 'value' in checked && checked.value.op === 'settle')
          subscriber.next(deepFreeze(checked.value.outcome))
        return false
      },
      (error) => subscriber.error(error),
    )
    const read = reads.wake
    const unlisten = hub.listen(EVENTS_CHANNEL, sessionId, read)
    const timer = setInterval(read, pollMs)
    read()
    return () => {
      reads.stop()
      clearInterval(timer)
      unlisten()
    }
  })
