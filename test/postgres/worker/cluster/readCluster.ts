/**
 * The cluster test's sessions read straight from the tables (not through the library), so the
 * checks see exactly what was committed: each session's fencing counter, its events with their
 * writers' epochs, and its inbox journal.
 */
import type pg from 'pg'
import type { AgentMessageId, SessionEvent } from '../../../../src/index.js'

export type EventRow = {
  readonly seq: number
  readonly epoch: number
  readonly event: SessionEvent
  /** When its checkpoint committed (ms since the epoch, the server's clock). */
  readonly committedAt: number
}
export type JournalRow = {
  readonly seq: number
  readonly op: string
  /** The owner's epoch; null for a remote send. */
  readonly epoch: number | null
  readonly record: { readonly id?: AgentMessageId; readonly outcome?: { readonly kind: string } }
}
export type SessionRows = {
  readonly id: string
  /** The session's fencing counter: how many times a process took its lease. */
  readonly epoch: number
  readonly events: readonly EventRow[]
  readonly journal: readonly JournalRow[]
}

const like = (prefix: string) => `${prefix}-%`

/** Every session whose id starts with `${prefix}-`, by id. */
export const readCluster = async (pool: pg.Pool, prefix: string): Promise<Map<string, SessionRows>> => {
  const sessions = await pool.query('SELECT id, epoch FROM steerable_sessions WHERE id LIKE $1', [
    like(prefix),
  ])
  const events = await pool.query(
    'SELECT session_id, seq, epoch, event, committed_at FROM steerable_events WHERE session_id LIKE $1 ORDER BY session_id, seq',
    [like(prefix)],
  )
  const journal = await pool.query(
    'SELECT session_id, seq, op, epoch, record FROM steerable_inbox WHERE session_id LIKE $1 ORDER BY session_id, seq',
    [like(prefix)],
  )
  const byId = new Map<string, { epoch: number; events: EventRow[]; journal: JournalRow[] }>()
  for (const row of sessions.rows) byId.set(row.id, { epoch: Number(row.epoch), events: [], journal: [] })
  for (const row of events.rows)
    byId.get(row.session_id)?.events.push({
      seq: row.seq,
      epoch: Number(row.epoch),
      event: row.event,
      committedAt: new Date(row.committed_at).getTime(),
    })
  for (const row of journal.rows)
    byId.get(row.session_id)?.journal.push({
      seq: Number(row.seq),
      op: row.op,
      epoch: row.epoch === null ? null : Number(row.epoch),
      record: row.record,
    })
  return new Map([...byId].map(([id, rows]) => [id, { id, ...rows }]))
}

/** The ids carried by an event or settled in the journal, in the sessions starting with `${prefix}-`. */
export const settledIds = async (pool: pg.Pool, prefix: string): Promise<Set<AgentMessageId>> => {
  const { rows } = await pool.query(
    `SELECT event->'data'->>'id' AS id FROM steerable_events
      WHERE session_id LIKE $1 AND event->>'type' IN ('user/message', 'steering/message')
     UNION ALL
     SELECT record->>'id' AS id FROM steerable_inbox WHERE session_id LIKE $1 AND op = 'settle'`,
    [like(prefix)],
  )
  return new Set(rows.map((r) => r.id as AgentMessageId))
}
