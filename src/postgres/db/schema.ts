/**
 * The tables of sessions on PostgreSQL, as numbered migration steps. `migrate` applies the steps
 * a database has not had yet, in order; a step is never changed once released (a change is a new
 * step), so every database converges on the same schema.
 */
export const MIGRATIONS: readonly (readonly string[])[] = [
  [
    // One row per session. `epoch` is the fencing token (R54): it increases each time a process
    // takes the lease, and every checkpoint writes only while it is still the writer's epoch.
    // `inbox_seq` is the last number handed out in the session's inbox journal: taking the next
    // one locks this row, so journal rows commit in the order of their numbers.
    `CREATE TABLE steerable_sessions (
      id text PRIMARY KEY,
      epoch bigint NOT NULL DEFAULT 0,
      owner text,
      inbox_seq bigint NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    // The durable events (R35), one row each, keyed by the event's own seq. `json` keeps the text
    // as written (jsonb would refuse a \\u0000 in a message). `epoch` is the writer's.
    `CREATE TABLE steerable_events (
      session_id text NOT NULL REFERENCES steerable_sessions (id) ON DELETE CASCADE,
      seq integer NOT NULL,
      epoch bigint NOT NULL,
      event json NOT NULL,
      committed_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (session_id, seq)
    )`,
    // The inbox journal (R50): records in the order of their per-session `seq`. `op` and
    // `message_id` are copied out of the record for lookups; `epoch` is the writer's (null for a
    // process that does not own the session).
    `CREATE TABLE steerable_inbox (
      session_id text NOT NULL REFERENCES steerable_sessions (id) ON DELETE CASCADE,
      seq bigint NOT NULL,
      op text NOT NULL,
      message_id text,
      epoch bigint,
      record json NOT NULL,
      committed_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (session_id, seq)
    )`,
    // A message is added once: a send stored twice (a retry after an unclear commit) is stored once.
    `CREATE UNIQUE INDEX steerable_inbox_message ON steerable_inbox (session_id, op, message_id)
      WHERE message_id IS NOT NULL`,
  ],
  [
    // How far the owners got in applying remote edits (R55, R58): the journal number of the last
    // remote edit row applied. An edit leaves no trace under an id of its own (a remote send
    // does: its id), so each owner writes this in the checkpoint transaction that holds what the
    // edit did, and the next owner applies only the edit rows after it: each at most once, none lost.
    'ALTER TABLE steerable_sessions ADD COLUMN remote_applied bigint NOT NULL DEFAULT 0',
  ],
  [
    // Work waiting, kept as a flag on the row that is the work, so a worker's scan reads only
    // those rows (a partial index), never a session's history: a remote send no owner applied
    // yet, an item an owner added as `queued` and never delivered or settled, a remote edit after
    // `remote_applied`. Rows are written with it set and each checkpoint clears the rows its
    // adds, settlements, delivered messages and applied edits answer (writeCheckpoint).
    'ALTER TABLE steerable_inbox ADD COLUMN pending boolean NOT NULL DEFAULT false',
    // Settlements by id: outcome() reads them, and the flags of an existing database come from them.
    `CREATE INDEX steerable_inbox_settled ON steerable_inbox (session_id, (record->>'id')) WHERE op = 'settle'`,
    // The flags of the rows already there: the answer of the scan this step replaces, once.
    `UPDATE steerable_inbox i SET pending = true
     WHERE (
         i.message_id IS NOT NULL
         AND ((i.op = 'send' AND NOT EXISTS (
                 SELECT 1 FROM steerable_inbox a
                 WHERE a.session_id = i.session_id AND a.op = 'add' AND a.message_id = i.message_id))
              OR (i.op = 'add' AND i.record->>'placement' = 'queued'))
         AND NOT EXISTS (
           SELECT 1 FROM steerable_inbox d
           WHERE d.session_id = i.session_id AND d.op = 'settle' AND d.record->>'id' = i.message_id)
         AND NOT EXISTS (
           SELECT 1 FROM steerable_events e
           WHERE e.session_id = i.session_id AND e.event->'data'->>'id' = i.message_id))
       OR (i.op LIKE 'remote-%' AND i.seq > (
         SELECT s.remote_applied FROM steerable_sessions s WHERE s.id = i.session_id))`,
    'CREATE INDEX steerable_inbox_pending ON steerable_inbox (session_id) WHERE pending',
  ],
]

/** The table that records which steps a database has had. */
export const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS steerable_migrations (
  version integer PRIMARY KEY,
  applied_at timestamptz NOT NULL DEFAULT now()
)`

/** The advisory lock that keeps two `migrate` runs from interleaving (an arbitrary constant). */
export const MIGRATE_LOCK = 7_283_140_051
