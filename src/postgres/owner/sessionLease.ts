import { hostname } from 'node:os'
import { SessionLockedError } from '../../session/storeErrors.js'
import { LeaseLostError, sessionLabel } from '../db/databaseErrors.js'
import type { PooledClient, PostgresPool, QueryResult } from '../db/pgTypes.js'
import { SESSION_LOCK_KEY } from '../db/sessionLock.js'
import { connectWithin, queryWithin } from '../db/timeouts.js'

/**
 * Ownership of one session (R54): a session-level advisory lock held by a connection of its own,
 * so it dies with that connection (and with the process), and the epoch this owner got when it
 * took the lock. Every query on it is bounded by the timeout; a query that times out, or a
 * connection that breaks, loses the lease for good.
 */
export type SessionLease = {
  readonly epoch: number
  /** Runs a query on the lease's connection. */
  query(text: string, values?: unknown[]): Promise<QueryResult>
  /**
   * Runs `work` (a transaction of queries) with the heartbeat held back, so that it never lands
   * inside the transaction (where, after a failed statement, it would fail too).
   */
  transaction<T>(work: () => Promise<T>): Promise<T>
  /** Why the lease was lost, once it was; `undefined` while it is held. */
  readonly lost: LeaseLostError | undefined
  /**
   * Gives the lease up as lost: its connection is in a state nobody can tell (a transaction that
   * could not be rolled back). The connection is closed, and the lock with it.
   */
  abandon(why: string, cause?: unknown): void
  /** `listener` is told once, when the lease is lost (not when it is released). */
  onLost(listener: (reason: LeaseLostError) => void): void
  /** Unlocks and closes the connection; resolves when done (never rejects). */
  release(): Promise<void>
}

/** Who holds a lease, as `steerable_sessions.owner` records it: `host:pid`. */
const ME = `${hostname()}:${process.pid}`

/**
 * Takes the lease of `sessionId`, or throws `SessionLockedError` when another connection holds
 * it (naming the process that took it last, when known). Creates the session's row when there is
 * none, and raises its epoch.
 */
export const takeLease = async (pool: PostgresPool, sessionId: string, ms: number): Promise<SessionLease> => {
  const client = await connectWithin(pool, ms)
  let lost: LeaseLostError | undefined
  let released = false
  const listeners: ((reason: LeaseLostError) => void)[] = []
  let heartbeat: ReturnType<typeof setInterval> | undefined
  let transactions = 0
  const lose = (why: string, cause?: unknown) => {
    if (lost || released) return
    lost = new LeaseLostError(`this process lost its lease: ${why}`, { cause })
    clearInterval(heartbeat)
    destroy(client)
    for (const listener of listeners.splice(0)) listener(lost)
  }
  client.on('error', (error) => lose('its connection failed', error))
  client.on('end', () => lose('its connection ended'))
  const query = (text: string, values?: unknown[]) => {
    if (lost) return Promise.reject(lost)
    return queryWithin(client, ms, text, values, () => lose(`a query did not answer within ${ms} ms`))
  }
  try {
    // A holder that goes silent (frozen, or cut off by the network) loses the lock on the server
    // after three timeouts; the heartbeat keeps a live holder talking, and notices a dead link.
    await query(`SET idle_session_timeout = ${3 * ms}; SET idle_in_transaction_session_timeout = ${3 * ms}`)
    const { rows } = await query(`SELECT pg_try_advisory_lock(${SESSION_LOCK_KEY}) AS locked`, [sessionId])
    if (rows[0]?.locked !== true) throw await lockedError(query, sessionId)
    const taken = await query(
      `INSERT INTO steerable_sessions (id, epoch, owner) VALUES ($1, 1, $2)
       ON CONFLICT (id) DO UPDATE SET epoch = steerable_sessions.epoch + 1, owner = $2, updated_at = now()
       RETURNING epoch`,
      [sessionId, ME],
    )
    const epoch = Number(taken.rows[0]?.epoch)
    heartbeat = setInterval(() => {
      if (transactions === 0) query('SELECT 1').catch((error: unknown) => lose('its heartbeat failed', error))
    }, ms)
    heartbeat.unref()
    return {
      epoch,
      query,
      transaction: async (work) => {
        transactions++
        try {
          return await work()
        } finally {
          transactions--
        }
      },
      get lost() {
        return lost
      },
      abandon: lose,
      onLost: (listener) => {
        if (!lost) listeners.push(listener)
      },
      release: async () => {
        if (lost || released) return
        clearInterval(heartbeat)
        try {
          await query(`SELECT pg_advisory_unlock(${SESSION_LOCK_KEY})`, [sessionId])
        } catch {
          // The connection is closed below: the lock goes with it.
        }
        if (lost) return
        released = true
        destroy(client)
      },
    }
  } catch (error) {
    released = true
    clearInterval(heartbeat)
    destroy(client)
    throw error
  }
}

const destroy = (client: PooledClient): void => {
  try {
    client.release(true)
  } catch {
    // Released already (the connection failed meanwhile).
  }
}

const lockedError = async (
  query: (text: string, values?: unknown[]) => Promise<QueryResult>,
  sessionId: string,
): Promise<SessionLockedError> => {
  const { rows } = await query('SELECT owner FROM steerable_sessions WHERE id = $1', [sessionId])
  const owner = typeof rows[0]?.owner === 'string' ? rows[0].owner : ''
  const pid = Number(owner.slice(owner.lastIndexOf(':') + 1))
  return new SessionLockedError(sessionLabel(sessionId), owner && Number.isInteger(pid) ? pid : Number.NaN)
}
