/**
 * What the PostgreSQL tests share: waiting for a condition, and an owner in the test's own process
 * (the store with its lease, an agent on it, applying remote requests), as a worker would drive it.
 */
import type pg from 'pg'
import type { SessionEvent } from '../../src/index.js'
import { liveChannel } from '../../src/postgres/channels.js'
import {
  applyRemoteSends,
  connectSessions,
  openPostgresSession,
  type PostgresSessionStore,
} from '../../src/postgres.js'
import { extensionsOf } from '../../src/runtime/extensions.js'
import type { ScriptedReply } from '../../src/testing.js'
import { gate, setup } from './agents.js'
import { until } from './until.js'

export { until }

/**
 * Waits until some connection LISTENs to `sessionId`'s live channel (its last statement, done,
 * says so). Live events are not stored: a follower hears only what is published after that, so a
 * test that expects a live line (`· running`) lets the follower's LISTEN land before it acts.
 */
export const liveListening = (pool: pg.Pool, sessionId: string): Promise<void> =>
  until(async () => {
    const { rows } = await pool.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND state = 'idle' AND query = $1`,
      [`LISTEN ${liveChannel(sessionId)}`],
    )
    return (rows[0] as { n: number }).n > 0
  }, `a LISTEN on the live channel of ${sessionId}`)

/**
 * Takes the lease of `sessionId` and drives it with a scripted model, applying remote requests;
 * what `applyRemoteSends` reports failed is in `failures`. `release` lets the session go without
 * discarding anything (what a worker does, R57).
 */
export const ownSession = async (pool: pg.Pool, sessionId: string, script: readonly ScriptedReply[]) => {
  const store: PostgresSessionStore = await openPostgresSession(pool, sessionId, { pollMs: 100 })
  await store.takeLease()
  const { agent, model } = setup(script, { store })
  const failures: unknown[] = []
  const feed = applyRemoteSends(agent, store, { failed: (error) => failures.push(error) })
  return {
    store,
    agent,
    model,
    failures,
    release: async () => {
      feed.unsubscribe()
      await extensionsOf(agent).release()
      await store.release()
    },
  }
}

/** The committed events of `sessionId`, in `seq` order, read from the table. */
export const committedEvents = async (pool: pg.Pool, sessionId: string): Promise<SessionEvent[]> =>
  (
    await pool.query('SELECT event FROM steerable_events WHERE session_id = $1 ORDER BY seq', [sessionId])
  ).rows.map((row) => row.event as SessionEvent)

/**
 * A stored session nobody drives, with a queued prompt and a running turn's steering: an owner
 * in this process took remote sends into a running turn, then let the session go.
 */
export const storedInbox = async (pool: pg.Pool, sessionId: string) => {
  const client = connectSessions(pool, { pollMs: 100 })
  const remote = client.session(sessionId)
  const g = gate()
  const { agent, release } = await ownSession(pool, sessionId, [g.reply])
  await remote.followup('first')
  await until(() => agent.status === 'running', 'the turn')
  const steer = await remote.steer('steer this')
  const queued = await remote.followup('queued')
  await until(() => agent.inbox.queue.length === 1 && agent.inbox.outbox.length === 1, 'the inbox')
  await release()
  return { client, remote, steer, queued }
}
