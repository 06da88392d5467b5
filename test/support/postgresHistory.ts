/**
 * A long history written straight into the tables, as a worker that served `turns` remote
 * followups one turn each would have left it: per turn a remote send and the owner's `add` in the
 * journal, and six events (turn/start, the prompt, one step, turn/end). Written by one statement
 * per table (generate_series), so 100,000 turns take seconds, not an hour of real turns. Every
 * row passes the checks of an open (decodeSession). The tables are analyzed afterwards, as
 * autovacuum does on a live database: without statistics the planner guesses tables are small,
 * and a scan's cost would not be what it is in production.
 */

type Query = (text: string, values?: unknown[]) => Promise<unknown>

/** Writes `turns` delivered remote followups into the session `sessionId` (which must not exist). */
export const writeDeliveredHistory = async (
  query: Query,
  sessionId: string,
  turns: number,
): Promise<void> => {
  const message = `json_build_object('id', 'm-' || t, 'content',
    json_build_array(json_build_object('type', 'text', 'text', 'q' || t)), 'source', json_build_object('kind', 'user'))`
  await query(
    `INSERT INTO steerable_sessions (id, epoch, inbox_seq, updated_at) VALUES ($1, 1, $2 * 2, now() - interval '1 day')`,
    [sessionId, turns],
  )
  await query(
    `INSERT INTO steerable_inbox (session_id, seq, op, message_id, epoch, record)
     SELECT $1, 2 * t - 1, 'send', 'm-' || t, NULL, json_build_object('op', 'send', 'message', ${message},
       'options', json_build_object('target', 'next-turn', 'wakeup', true))
     FROM generate_series(1, $2::int) AS t
     UNION ALL
     SELECT $1, 2 * t, 'add', 'm-' || t, 1, json_build_object('op', 'add', 'message', ${message},
       'placement', 'queued')
     FROM generate_series(1, $2::int) AS t`,
    [sessionId, turns],
  )
  await query(
    `INSERT INTO steerable_events (session_id, seq, epoch, event)
     SELECT $1, 6 * (t - 1) + k, 1, CASE k
       WHEN 1 THEN json_build_object('seq', 6 * (t - 1) + k, 'type', 'turn/start', 'data', json_build_object(
         'turn', t, 'trigger', json_build_object('kind', 'message', 'source', json_build_object('kind', 'user'),
         'id', 'm-' || t)))
       WHEN 2 THEN json_build_object('seq', 6 * (t - 1) + k, 'type', 'user/message', 'data', json_build_object(
         'content', json_build_array(json_build_object('type', 'text', 'text', 'q' || t)),
         'source', json_build_object('kind', 'user'), 'id', 'm-' || t))
       WHEN 3 THEN json_build_object('seq', 6 * (t - 1) + k, 'type', 'step/start', 'data',
         json_build_object('turn', t, 'step', 1))
       WHEN 4 THEN json_build_object('seq', 6 * (t - 1) + k, 'type', 'assistant/message', 'data',
         json_build_object('turn', t, 'step', 1, 'content', json_build_array(json_build_object('type', 'text',
         'text', 'a' || t))))
       WHEN 5 THEN json_build_object('seq', 6 * (t - 1) + k, 'type', 'step/end', 'data',
         json_build_object('turn', t, 'step', 1))
       ELSE json_build_object('seq', 6 * (t - 1) + k, 'type', 'turn/end', 'data',
         json_build_object('turn', t, 'reason', json_build_object('kind', 'completed')))
     END
     FROM generate_series(1, $2::int) AS t, generate_series(1, 6) AS k`,
    [sessionId, turns],
  )
  await query('ANALYZE steerable_sessions, steerable_inbox, steerable_events')
}
