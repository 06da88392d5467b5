import type { SessionEvent } from '../../contracts/events.js'
import type { InboxRecord } from '../../contracts/inbox.js'
import { checkRecordLine } from '../../session/journalLine.js'
import { checkEvent } from '../../session/sessionEventSchema.js'
import { SessionStoreError } from '../../session/storeErrors.js'
import { sessionLabel } from './databaseErrors.js'
import type { QueryResult } from './pgTypes.js'

/** One row of the inbox journal as read back: its number, its kind and its record. */
export type JournalRow = { readonly seq: number; readonly op: string; readonly record: unknown }

/** A session as read from the database: its events, its inbox journal, and the last epoch. */
export type SessionRows = {
  readonly events: SessionEvent[]
  readonly journal: JournalRow[]
  readonly epoch: number
  /** The journal number of the last remote edit an owner applied (0: none). */
  readonly remoteApplied: number
}

type Query = (text: string, values?: unknown[]) => Promise<QueryResult>

/**
 * Reads the events and inbox journal of `sessionId`, as of one snapshot (a repeatable-read,
 * read-only transaction), and checks every event as a file store checks a log line (R37): a row
 * that is not a valid event in `seq` order is an error naming the session and the row, and
 * nothing is changed.
 */
export const readSession = async (query: Query, sessionId: string): Promise<SessionRows> => {
  await query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
  try {
    const session = await query('SELECT epoch, remote_applied FROM steerable_sessions WHERE id = $1', [
      sessionId,
    ])
    const events = await query('SELECT event FROM steerable_events WHERE session_id = $1 ORDER BY seq', [
      sessionId,
    ])
    const journal = await query(
      'SELECT seq, op, record FROM steerable_inbox WHERE session_id = $1 ORDER BY seq',
      [sessionId],
    )
    await query('COMMIT')
    return {
      events: events.rows.map((row, index) => checkedEvent(sessionId, row.event, index)),
      journal: journal.rows.map((row) => ({ seq: Number(row.seq), op: String(row.op), record: row.record })),
      epoch: Number(session.rows[0]?.epoch ?? 0),
      remoteApplied: Number(session.rows[0]?.remote_applied ?? 0),
    }
  } catch (error) {
    await query('ROLLBACK').catch(() => {})
    throw error
  }
}

const checkedEvent = (sessionId: string, value: unknown, index: number): SessionEvent => {
  const problem = checkEvent(value, index)
  if (!problem) return value as SessionEvent
  const label = sessionLabel(sessionId)
  throw new SessionStoreError(
    label,
    `${label}: event row ${index + 1} is not a valid event (${problem.message}); ` +
      'nothing was changed: fix or delete the row in steerable_events, then open the session again',
  )
}

/**
 * The inbox records of a journal (R50), checked like the lines of a file store's journal; rows of
 * other kinds (`isRecord` says which) are left out.
 */
export const inboxRecords = (
  sessionId: string,
  rows: readonly JournalRow[],
  isRecord: (row: JournalRow) => boolean,
): InboxRecord[] =>
  rows.filter(isRecord).map((row) => {
    const checked = checkRecordLine(row.record, 0)
    if ('value' in checked) return checked.value
    const label = sessionLabel(sessionId)
    throw new SessionStoreError(
      label,
      `${label}: inbox journal row ${row.seq}: ${checked.problem}; nothing was changed: ` +
        'fix or delete the row in steerable_inbox, then open the session again',
    )
  })
