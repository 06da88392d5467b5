import type { AgentOptions } from '../../contracts/agentOptions.js'
import { INBOX_CHANNEL } from '../channels.js'
import type { DatabaseOptions } from '../db/databaseErrors.js'
import type { PostgresPool } from '../db/pgTypes.js'
import { acquireSharedHub } from '../db/sharedHub.js'
import { DEFAULT_TIMEOUT_MS, withConnection } from '../db/timeouts.js'
import { type DrivenSession, driveSession } from './driveSession.js'
import { sessionsWithWork } from './sessionsWithWork.js'

export type WorkerOptions = DatabaseOptions & {
  readonly pool: PostgresPool
  /** The agent options for a session (everything but `store`, which the worker gives). */
  readonly agent: (sessionId: string) => Omit<AgentOptions, 'store'>
  /** How many sessions it drives at once; default 4. */
  readonly concurrency?: number
  /**
   * How often it scans for sessions with waiting work when no notification came; default 1000 ms
   * (R55's fallback). A remote send or edit into a session it does not drive wakes a scan at once.
   */
  readonly pollMs?: number
  /** How long a session stays open once it is idle with nothing new applied; default 1000 ms. */
  readonly idleMs?: number
  /** Called with what went wrong when a scan or a session fails; the worker carries on. */
  readonly onError?: (error: unknown) => void
}

export type Worker = {
  /** The sessions it drives now. */
  readonly sessions: ReadonlySet<string>
  /** Stops taking sessions and releases each (never discarding, R57); resolves when done. */
  close(): Promise<void>
}

/**
 * Serves every session with waiting work (R57): it scans for them when it starts, whenever a
 * remote send or edit is stored into a session it does not drive (LISTEN), and every `pollMs`
 * (the fallback, and how it finds sessions an owner released or left behind); it takes the lease of each (another worker holding it is skipped), drives it until it is
 * idle and quiet for `idleMs`, then releases it. A session it found nothing to do in is not opened
 * again until its journal changes. A worker that dies releases its sessions with its connections;
 * another one resumes them from the log and the journal.
 */
export const createWorker = (options: WorkerOptions): Worker => {
  const concurrency = options.concurrency ?? 4
  const pollMs = options.pollMs ?? 1_000
  const idleMs = options.idleMs ?? 1_000
  const ms = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const onError = (error: unknown): void => {
    // Outside code: whatever it throws must not stop the scans or reject a detached serve().
    try {
      options.onError?.(error)
    } catch {
      // Nothing else to tell.
    }
  }
  const driven = new Map<string, DrivenSession | undefined>()
  const nothingAt = new Map<string, number>()
  let closed = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let scanning = false
  let again = false

  const serve = async (id: string, inboxSeq: number): Promise<void> => {
    driven.set(id, undefined)
    let freed = false
    try {
      const session = await driveSession(options.pool, id, options.agent(id), {
        timeoutMs: ms,
        pollMs,
        idleMs,
      })
      if (!session) return
      // Closed while the lease was being taken: close() could not release a session it did not
      // have yet, so let it go here rather than drive it (a long turn would hold close() open).
      if (closed) return void (await session.release())
      driven.set(id, session)
      await session.quiet
      await session.release()
      nothingAt.set(id, inboxSeq)
      // A full worker skipped sessions for want of a slot: one is free now, look at once (only
      // after driving: a session another process holds would otherwise be retried in a loop).
      if (driven.size >= concurrency) freed = true
    } catch (error) {
      onError(error)
    } finally {
      driven.delete(id)
      if (freed) scanSoon()
      else if (!closed) schedule(0)
    }
  }
  const scan = async (): Promise<void> => {
    timer = undefined
    if (closed) return
    scanning = true
    try {
      const free = concurrency - driven.size
      if (free > 0) {
        const found = await withConnection(options.pool, ms, (query) =>
          sessionsWithWork(query, free + driven.size + nothingAt.size),
        )
        for (const { id, inboxSeq } of found) {
          if (closed || driven.size >= concurrency) break
          if (driven.has(id) || nothingAt.get(id) === inboxSeq) continue
          void serve(id, inboxSeq)
        }
      }
    } catch (error) {
      onError(error)
    }
    scanning = false
    schedule(again ? 0 : pollMs)
    again = false
  }
  const schedule = (delay: number): void => {
    if (closed || timer) return
    timer = setTimeout(() => void scan(), delay)
  }
  /** Scans now, not at the next poll (once at a time: a scan under way runs again after). */
  const scanSoon = (): void => {
    if (closed) return
    if (scanning) {
      again = true
      return
    }
    if (timer) clearTimeout(timer)
    timer = undefined
    schedule(0)
  }
  /** A request stored into a session this worker does not drive. */
  const wake = (sessionId: string): void => {
    if (!driven.has(sessionId)) scanSoon()
  }
  const shared = acquireSharedHub(options.pool, ms)
  const unfollow = shared.hub.follow(INBOX_CHANNEL, wake)
  schedule(0)

  return {
    get sessions() {
      return new Set(driven.keys())
    },
    close: async () => {
      closed = true
      if (timer) clearTimeout(timer)
      unfollow()
      shared.release()
      await Promise.all([...driven.values()].map((session) => session?.release()))
      while (driven.size > 0) await new Promise((resolve) => setTimeout(resolve, 10))
    },
  }
}
