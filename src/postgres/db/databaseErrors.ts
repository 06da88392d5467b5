import { SessionStoreError } from '../../session/storeErrors.js'

/** Options of every function that talks to the database. */
export type DatabaseOptions = {
  /** How long one database operation may take before it fails (R59); default 10 000 ms. */
  readonly timeoutMs?: number
}

/** How errors name a session on PostgreSQL (the `path` of its `SessionStoreError`s). */
export const sessionLabel = (sessionId: string | undefined): string =>
  sessionId === undefined ? 'PostgreSQL' : `session ${JSON.stringify(sessionId)} on PostgreSQL`

/**
 * The `cause` of the `SessionStoreError` of a store that lost its lease (R54): another process
 * took the session over, or the connection that held the lease ended. It never writes again.
 */
export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError'
  readonly code = 'LEASE_LOST'
}

const codeOf = (error: unknown): string | undefined => {
  try {
    const code = (error as { code?: unknown } | null)?.code
    return typeof code === 'string' ? code : undefined
  } catch {
    return undefined
  }
}

/** The error's message; its code or name when the message is empty (a refused connection's can be). */
const describe = (error: unknown): string => {
  try {
    if (!(error instanceof Error)) return String(error)
    return error.message || codeOf(error) || error.name
  } catch {
    return 'unknown error'
  }
}

const ADVICE: Record<string, string> = {
  ECONNREFUSED: 'nothing listens at the database address: start the server, or fix the connection settings',
  ENOTFOUND: 'the database host name does not resolve: fix the connection settings',
  ETIMEDOUT:
    'the database did not answer in time: check that it is up and reachable (timeoutMs sets the limit)',
  ECONNRESET: 'the connection to the database broke: check that the server is up',
  '42P01': 'the tables do not exist: run migrate(pool) (or `steerable migrate --database-url …`) first',
  // A column a later migration step adds (an upgraded library on tables migrated by an older one).
  '42703':
    'the tables are from an older version: run migrate(pool) (or `steerable migrate --database-url …`) again',
  '3D000': 'the database does not exist: create it, or fix the connection settings',
  '28P01': 'the database refused the password: fix the connection settings',
  '28000': 'the database refused this role: fix the connection settings or its pg_hba.conf',
  '42501': 'this role may not use the steerable_ tables: grant it the rights',
  '53300': 'the database has no connection left: lower the pools, or raise max_connections',
  '57P01': 'the server ended the connection (it is shutting down, or someone terminated it)',
  '57P03': 'the server is starting or stopping: try again in a moment',
}

/**
 * What the database refused or failed to do (`action`, for the session `sessionId`) as a
 * `SessionStoreError` naming the session, with `cause`, and advice from its code. `retried` adds
 * that nothing was lost and the next checkpoint writes again.
 */
export const databaseError = (
  sessionId: string | undefined,
  action: string,
  cause: unknown,
  retried = false,
): SessionStoreError => {
  if (cause instanceof SessionStoreError) return cause
  const label = sessionLabel(sessionId)
  const code = codeOf(cause)
  const advice =
    (code && ADVICE[code]) ??
    (cause instanceof LeaseLostError
      ? 'it writes nothing more; open the session again (and take its lease) to drive it'
      : 'check that the database is up and that this role can read and write the steerable_ tables')
  const again = retried
    ? '; nothing was lost: the events stay in memory and the next checkpoint writes them'
    : ''
  return new SessionStoreError(
    label,
    `${label}: cannot ${action} (${describe(cause)}); ${advice}${again}`,
    cause,
  )
}
