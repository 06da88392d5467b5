import { defer, EMPTY, from, mergeMap, type Observable, throwError, timer } from 'rxjs'
import { InvalidInputError } from '../../contracts/errors.js'
import type { AgentMessageId } from '../../contracts/messages.js'
import { databaseError } from '../db/databaseErrors.js'
import type { PostgresPool } from '../db/pgTypes.js'
import { DRIVEN } from '../db/sessionLock.js'
import { withConnection } from '../db/timeouts.js'

/**
 * Errors with `InvalidInputError` when the session's journal and transcript do not hold the message
 * `id` (R42 as R60 carries it: an id nobody sent), else completes without a value. Only an owner
 * can make an id durable after the call: its own send is durable at its next checkpoint, and it
 * may hand the id on before that (a remote client's send is stored before it returns the id). So
 * when no process drives the session, the first read decides; when one does, an id missing at
 * the first read is read again after `graceMs`, and refused only if it is still missing then
 * (docs/decisions.md).
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
    mergeMap(({ known }) => (known ? EMPTY : refuse(sessionId, id, `held it within ${graceMs} ms`))),
  )
  return read.pipe(
    mergeMap(({ known, driven }) =>
      known ? EMPTY : driven ? again : refuse(sessionId, id, 'holds it, and no process drives it'),
    ),
  )
}

const refuse = (sessionId: string, id: AgentMessageId, why: string): Observable<never> =>
  throwError(
    () =>
      new InvalidInputError('outcome()', [
        {
          path: ['id'],
          message:
            `no message ${JSON.stringify(id)} was sent into session ${JSON.stringify(sessionId)} (neither its ` +
            `inbox journal nor its transcript ${why}); pass an id that send(), followup(), steer() or ` +
            'inject() returned for this session',
        },
      ]),
  )

/**
 * Whether the journal (a send, an add, a settlement) or the transcript holds the message `id`, and
 * whether some process held the session's lease just before. The lease is read first, in a
 * statement of its own: an owner that let go by then had made its sends durable first (or lost
 * them for good), so the second statement, which sees every commit made before it began, finds
 * them.
 */
const holds = (
  pool: PostgresPool,
  sessionId: string,
  id: AgentMessageId,
  ms: number,
): Promise<{ known: boolean; driven: boolean }> =>
  withConnection(pool, ms, async (query) => {
    const lease = await query(`SELECT ${DRIVEN} AS driven`, [sessionId])
    const { rows } = await query(
      `SELECT EXISTS (
         SELECT 1 FROM steerable_inbox WHERE session_id = $1 AND op IN ('send', 'add') AND message_id = $2
       ) OR EXISTS (
         SELECT 1 FROM steerable_inbox WHERE session_id = $1 AND op = 'settle' AND record->>'id' = $2
       ) OR EXISTS (
         SELECT 1 FROM steerable_events WHERE session_id = $1 AND event->'data'->>'id' = $2
           AND event->>'type' IN ('user/message', 'steering/message')
       ) AS known`,
      [sessionId, id],
    )
    return { known: rows[0]?.known === true, driven: lease.rows[0]?.driven === true }
  }).catch((error: unknown) => {
    throw databaseError(sessionId, `read whether it holds ${id}`, error)
  })
