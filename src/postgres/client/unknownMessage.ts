import { defer, EMPTY, from, mergeMap, type Observable, throwError, timer } from 'rxjs'
import { InvalidInputError } from '../../contracts/errors.js'
import type { AgentMessageId } from '../../contracts/messages.js'
import { databaseError } from '../db/databaseErrors.js'
import type { PostgresPool } from '../db/pgTypes.js'
import { withConnection } from '../db/timeouts.js'

/**
 * Errors with `InvalidInputError` when the session's journal and transcript do not hold the message
 * `id` (R42 as R60 carries it: an id nobody sent), else completes without a value. An id the
 * database does not hold yet may still come: an owner's own send is durable at its next checkpoint,
 * and a send may be stored after the call. So an id missing at the first read is read again after
 * `graceMs`, and refused only if it is still missing then (docs/decisions.md).
 */
export const unknownMessage = (
  pool: PostgresPool,
  sessionId: string,
  id: AgentMessageId,
  ms: number,
  graceMs: number,
): Observable<never> => {
  const read = defer(() => from(holds(pool, sessionId, id, ms)))
  const again = timer(graceMs).pipe(
    mergeMap(() => read),
    mergeMap((known) => (known ? EMPTY : refuse(sessionId, id, graceMs))),
  )
  return read.pipe(mergeMap((known) => (known ? EMPTY : again)))
}

const refuse = (sessionId: string, id: AgentMessageId, graceMs: number): Observable<never> =>
  throwError(
    () =>
      new InvalidInputError('outcome()', [
        {
          path: ['id'],
          message:
            `no message ${JSON.stringify(id)} was sent into session ${JSON.stringify(sessionId)} (neither its ` +
            `inbox journal nor its transcript held it within ${graceMs} ms); pass an id that send(), ` +
            'followup(), steer() or inject() returned for this session',
        },
      ]),
  )

/** Whether the journal (a send, an add, a settlement) or the transcript holds the message `id`. */
const holds = (pool: PostgresPool, sessionId: string, id: AgentMessageId, ms: number): Promise<boolean> =>
  withConnection(pool, ms, (query) =>
    query(
      `SELECT EXISTS (
         SELECT 1 FROM steerable_inbox WHERE session_id = $1 AND op IN ('send', 'add') AND message_id = $2
       ) OR EXISTS (
         SELECT 1 FROM steerable_inbox WHERE session_id = $1 AND op = 'settle' AND record->>'id' = $2
       ) OR EXISTS (
         SELECT 1 FROM steerable_events WHERE session_id = $1 AND event->'data'->>'id' = $2
           AND event->>'type' IN ('user/message', 'steering/message')
       ) AS known`,
      [sessionId, id],
    ),
  ).then(
    ({ rows }) => rows[0]?.known === true,
    (error: unknown) => {
      throw databaseError(sessionId, `read whether it holds ${id}`, error)
    },
  )
