import type { AgentOptions } from '../../contracts/agentOptions.js'
import { checkInput, type FieldRules } from '../../messages/checkInput.js'
import { aFunction, optional, timerMs, wholeNumber } from '../../messages/fieldRules.js'
import { INBOX_CHANNEL } from '../channels.js'
import { checkOptionsOf, poolRule, poolSize } from '../db/checkOptions.js'
import type { DatabaseOptions } from '../db/databaseErrors.js'
import type { PostgresPool } from '../db/pgTypes.js'
import { acquireSharedHub } from '../db/sharedHub.js'
import { DEFAULT_TIMEOUT_MS, withConnection } from '../db/timeouts.js'
import { type DrivenSession, driveSession } from './driveSession.js'
import { sessionsWithWork } from './sessionsWithWork.js'
import { initialWorkerState, type WorkerEffect, type WorkerInput, workerTransition } from './workerState.js'

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
 * (the fallback, and how it finds sessions an owner released or left behind); it takes the lease
 * of each (another worker holding it is skipped), drives it until it is idle and quiet for
 * `idleMs`, then releases it. A session it found nothing to do in is not opened again until its
 * journal changes. A worker that dies releases its sessions with its connections; another one
 * resumes them from the log and the journal.
 *
 * What it decides is `workerTransition`'s; this shell runs the effects it asks for. Bad options
 * (and a pool too small for `concurrency`) throw `InvalidInputError` before anything starts.
 */
export const createWorker = (options: WorkerOptions): Worker => {
  checkWorkerOptions(options)
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
  let state = initialWorkerState(options.concurrency ?? 4, pollMs)
  let timer: ReturnType<typeof setTimeout> | undefined
  /** The sessions it drives, once taken (the state lists those it is taking too). */
  const sessions = new Map<string, DrivenSession>()
  /** Per session it drove until quiet, the number of the last journal row it had then. */
  const nothingAt = new Map<string, number>()

  const dispatch = (input: WorkerInput): void => {
    const step = workerTransition(state, input)
    state = step.state
    for (const effect of step.effects) run(effect)
  }
  const run = (effect: WorkerEffect): void => {
    switch (effect.kind) {
      case 'set-timer':
        timer = setTimeout(() => {
          timer = undefined
          dispatch({ type: 'timer-fired', remembered: nothingAt.size })
        }, effect.delay)
        return
      case 'clear-timer':
        clearTimeout(timer)
        timer = undefined
        return
      case 'find':
        void find(effect.limit)
        return
      case 'serve':
        void serve(effect.id, effect.inboxSeq)
        return
    }
  }
  const find = async (limit: number): Promise<void> => {
    try {
      const found = await withConnection(options.pool, ms, (query) => sessionsWithWork(query, limit))
      for (const { id, inboxSeq } of found)
        dispatch({ type: 'found', id, inboxSeq, unchanged: nothingAt.get(id) === inboxSeq })
    } catch (error) {
      onError(error)
    }
    dispatch({ type: 'scan-done' })
  }
  const serve = async (id: string, inboxSeq: number): Promise<void> => {
    let quiet = false
    try {
      const session = await driveSession(options.pool, id, options.agent(id), {
        timeoutMs: ms,
        pollMs,
        idleMs,
      })
      if (!session) return
      // Closed while the lease was being taken: close() could not release a session it did not
      // have yet, so let it go here rather than drive it (a long turn would hold close() open).
      if (state.closed) return void (await session.release())
      sessions.set(id, session)
      await session.quiet
      await session.release()
      nothingAt.set(id, inboxSeq)
      quiet = true
    } catch (error) {
      onError(error)
    } finally {
      sessions.delete(id)
      dispatch({ type: 'session-done', id, quiet })
    }
  }
  const shared = acquireSharedHub(options.pool, ms)
  const unfollow = shared.hub.follow(INBOX_CHANNEL, (sessionId) => dispatch({ type: 'notified', sessionId }))
  dispatch({ type: 'started' })

  return {
    get sessions() {
      return new Set(state.driven)
    },
    close: async () => {
      dispatch({ type: 'close' })
      unfollow()
      shared.release()
      await Promise.all([...sessions.values()].map((session) => session.release()))
      while (state.driven.length > 0) await new Promise((resolve) => setTimeout(resolve, 10))
    },
  }
}

const WORKER_OPTIONS: FieldRules = {
  pool: poolRule,
  agent: aFunction('(sessionId) => the agent options of that session'),
  concurrency: optional(wholeNumber(1, 'such as 4')),
  pollMs: optional(timerMs(1, 'such as 1000')),
  idleMs: optional(timerMs(0, 'such as 1000')),
  timeoutMs: optional(timerMs(1, 'such as 10000')),
  onError: optional(aFunction()),
}

/**
 * The options, checked all at once. A pool that says how many connections it opens must open
 * `concurrency + 2`: one per driven session for its lease, one for LISTEN, one for scans and reads.
 * With fewer, the leases take them all and every scan waits for a connection until it times out.
 */
const checkWorkerOptions = (options: WorkerOptions): void =>
  checkInput('createWorker()', (check) => {
    checkOptionsOf(check, options ?? null, WORKER_OPTIONS)
    if (!check.ok) return
    const concurrency = options.concurrency ?? 4
    const max = poolSize(options.pool)
    if (max !== undefined && max < concurrency + 2)
      check.add(
        ['options', 'pool'],
        `the pool opens at most ${max} connection${max === 1 ? '' : 's'}, and a worker with concurrency ` +
          `${concurrency} needs concurrency + 2 = ${concurrency + 2} (one per session for its lease, one to ` +
          `LISTEN, one to scan): make the pool with max: ${concurrency + 4}, or lower concurrency`,
      )
  })
