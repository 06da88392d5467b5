import { type DatabaseOptions, databaseError } from '../db/databaseErrors.js'
import type { PostgresPool } from '../db/pgTypes.js'
import { readSession } from '../db/readSession.js'
import { checkSessionId } from '../db/sessionId.js'
import { DEFAULT_TIMEOUT_MS, withConnection } from '../db/timeouts.js'
import { type DecodedSession, decodeSession } from '../rows/decodeSession.js'
import { PostgresSession } from './postgresSession.js'
import type { PostgresSessionStore } from './postgresSessionStore.js'

/**
 * Opens the session `sessionId` on PostgreSQL (R53): reads its events and inbox journal, checks
 * them (R37), and returns a store that is already loaded. It takes no lease, so it can read any
 * session at any time; appending needs the lease (`store.takeLease()`), and each checkpoint
 * (`flush()`, and one of its own at each appended `step/end`, R85) is one transaction that writes
 * only while this store's lease is the current one.
 * A store that lost its lease fails for good: it writes nothing more, and `append`, `flush` and
 * `inbox.append` throw its `failure` (R54). Taking the lease compacts the journal; tables: `migrate(pool)`.
 */
export const openPostgresSession = async (
  pool: PostgresPool,
  sessionId: string,
  options: DatabaseOptions & { readonly pollMs?: number } = {},
): Promise<PostgresSessionStore> => {
  checkSessionId(sessionId, 'openPostgresSession()')
  const ms = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  let read: DecodedSession
  try {
    read = decodeSession(sessionId, await withConnection(pool, ms, (query) => readSession(query, sessionId)))
  } catch (error) {
    throw databaseError(sessionId, 'read the session', error)
  }
  return new PostgresSession(pool, sessionId, read, ms, options.pollMs ?? 1_000)
}
