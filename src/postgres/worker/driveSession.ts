import type { Subscription } from 'rxjs'
import { createAgent } from '../../agent/createAgent.js'
import type { Agent } from '../../contracts/agent.js'
import type { AgentOptions } from '../../contracts/agentOptions.js'
import { extensionsOf } from '../../runtime/extensions.js'
import { SessionLockedError } from '../../session/storeErrors.js'
import type { DatabaseOptions } from '../db/databaseErrors.js'
import type { PostgresPool } from '../db/pgTypes.js'
import { applyRemoteRequests } from '../owner/applyRemoteRequests.js'
import { openPostgresSession } from '../owner/openPostgresSession.js'
import type { PostgresSessionStore } from '../owner/postgresSessionStore.js'
import { publishEvents } from '../owner/publishEvents.js'

/** A session a worker drives: its agent, and how to let it go. */
export type DrivenSession = {
  readonly agent: Agent
  readonly store: PostgresSessionStore
  /** Resolves once the agent is idle with no remote request applied for `idleMs`. */
  readonly quiet: Promise<void>
  /** Stops driving without discarding (R57); resolves when the lease is released. */
  release(): Promise<void>
}

/**
 * Takes the lease of `sessionId` and drives it (R57): the session is read again under the
 * lease, an agent is created on it (R51 rebuilds its inbox; restored waking items wake it),
 * every remote request (send or edit) in the journal is applied in journal order as it commits
 * (R55, R58), and its live events are published for remote followers (R56). Returns `undefined`
 * when another process holds the lease.
 */
export const driveSession = async (
  pool: PostgresPool,
  sessionId: string,
  options: Omit<AgentOptions, 'store'>,
  settings: DatabaseOptions & { readonly pollMs?: number; readonly idleMs: number },
): Promise<DrivenSession | undefined> => {
  const store = await openPostgresSession(pool, sessionId, settings)
  try {
    await store.takeLease()
  } catch (error) {
    if (error instanceof SessionLockedError) return undefined
    throw error
  }
  let agent: Agent
  try {
    agent = createAgent({ ...options, store })
  } catch (error) {
    // Options createAgent refuses: the lease must go with the error, or the session stays
    // locked by this process (its connection holds the lock) and nobody can ever serve it.
    await store.release()
    throw error
  }
  // Before the remote requests are applied, so followers see their enqueue events too (R56).
  const publishing = publishEvents(agent, pool, sessionId, settings)
  let lastApplied = Date.now()
  let releasing = false
  // A follower that fails (the database is gone) leaves the requests in the journal.
  const applying: Subscription = applyRemoteRequests(agent, store, {
    applied: () => {
      lastApplied = Date.now()
    },
  })
  const quiet = new Promise<void>((resolve) => {
    const check = (): void => {
      // A store that lost its lease writes nothing more: stop driving at once (R54, R59).
      if (releasing || store.failure) return resolve()
      const idleFor = Date.now() - lastApplied
      if (
        agent.status === 'idle' &&
        agent.inbox.queue.every((i) => i.placement === 'parked') &&
        idleFor >= settings.idleMs
      )
        return resolve()
      setTimeout(check, Math.max(10, Math.min(settings.idleMs, 100))).unref()
    }
    check()
  })
  const release = async (): Promise<void> => {
    if (releasing) return
    releasing = true
    applying.unsubscribe()
    await extensionsOf(agent)
      .release()
      .catch(() => undefined)
    publishing.unsubscribe()
    await store.release().catch(() => undefined)
  }
  return { agent, store, quiet, release }
}
