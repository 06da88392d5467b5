import { Subscription } from 'rxjs'
import type { Agent } from '../contracts/agent.js'
import { errorText } from '../messages/errorText.js'
import {
  applyRemoteRequests,
  migrate,
  openPostgresSession,
  type PostgresSessionStore,
  publishEvents,
} from '../postgres.js'
import { loadPg, type Pool, pgMissing, poolFor } from './loadPg.js'

/** A session on PostgreSQL that this process drives: its store, and how to serve and let it go. */
export type DatabaseSession = {
  readonly store: PostgresSessionStore
  /**
   * Makes `agent` the session's owner for other processes: it applies their sends (R55) and
   * publishes its live events (R56) until `close()`.
   */
  serve(agent: Agent, warn: (line: string) => void): void
  /** Stops serving and ends the pool (dispose the agent first: that releases the lease). */
  close(): Promise<void>
}

/**
 * `steerable --database-url URL --session NAME`: creates the tables if needed, opens the session
 * and takes its lease. Returns the problem as `{code, message}` when it cannot: 2 for usage (no
 * pg, a bad URL), 1 when the database fails or another process drives the session.
 */
export const openDatabaseSession = async (
  url: string,
  sessionId: string,
): Promise<DatabaseSession | { readonly code: number; readonly message: string }> => {
  const pg = await loadPg()
  if (!pg) return { code: 2, message: pgMissing('steerable --database-url') }
  // The lease holds one connection; remote sends, checkpoints' followers and live events borrow more.
  const pool: Pool | string = poolFor(pg, url, 4)
  if (typeof pool === 'string') return { code: 2, message: `${pool}\n` }
  let store: PostgresSessionStore
  try {
    await migrate(pool)
    store = await openPostgresSession(pool, sessionId)
    await store.takeLease()
  } catch (error) {
    await pool.end().catch(() => {})
    return { code: 1, message: `steerable: ${errorText(error)}\n` }
  }
  const serving = new Subscription()
  return {
    store,
    serve: (agent, warn) => {
      const failed = (error: unknown) => warn(`remote sends stopped: ${errorText(error)}`)
      serving.add(applyRemoteRequests(agent, store, { failed }))
      serving.add(publishEvents(agent, pool, sessionId))
    },
    close: async () => {
      serving.unsubscribe()
      await pool.end().catch(() => {})
    },
  }
}
