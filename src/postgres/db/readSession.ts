import type { QueryResult } from './pgTypes.js'

/** One row of the inbox journal as read back: its number, its kind and its record. */
export type JournalRow = { readonly seq: number; readonly op: string; readonly record: unknown }

/**
 * A session as read from the database: its events (the `event` of each row, in `seq` order, not
 * checked yet: see `decodeSession`), its inbox journal, and the last epoch.
 */
export type SessionRows = {
  readonly events: unknown[]
  readonly journal: JournalRow[]
  readonly epoch: number
  /** The journal number of the last remote edit an owner applied (0: none). */
  readonly remoteApplied: number
  /** The session has its row: an owner took its lease, or a client sent into it. */
  readonly exists: boolean
}

type Query = (text: string, values?: unknown[]) => Promise<QueryResult>

/**
 * Reads the events and inbox journal of `sessionId`, as of one snapshot (a repeatable-read,
 * read-only transaction). The rows come back as stored: `decodeSession` checks them.
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
      events: events.rows.map((row) => row.event),
      journal: journal.rows.map((row) => ({ seq: Number(row.seq), op: String(row.op), record: row.record })),
      epoch: Number(session.rows[0]?.epoch ?? 0),
      remoteApplied: Number(session.rows[0]?.remote_applied ?? 0),
      exists: session.rows.length > 0,
    }
  } catch (error) {
    await query('ROLLBACK').catch(() => {})
    throw error
  }
}
