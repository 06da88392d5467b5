import { AsyncSubject, defer, filter, from } from 'rxjs'
import type { SessionEvent } from '../../contracts/events.js'
import { alreadyFlushed } from '../../session/memoryStore.js'
import { SessionStoreError } from '../../session/storeErrors.js'
import { type DatabaseOptions, databaseError, LeaseLostError, sessionLabel } from '../db/databaseErrors.js'
import type { PostgresPool } from '../db/pgTypes.js'
import { readSession } from '../db/readSession.js'
import { checkSessionId } from '../db/sessionId.js'
import { DEFAULT_TIMEOUT_MS, withConnection } from '../db/timeouts.js'
import { type DecodedSession, decodeSession } from '../rows/decodeSession.js'
import { isPendingSend } from '../rows/pendingRemoteRequests.js'
import { readCompacted } from './compactJournal.js'
import { followRemoteRequests } from './followRemoteRequests.js'
import type { PostgresSessionStore } from './postgresSessionStore.js'
import { type SessionLease, takeLease } from './sessionLease.js'
import {
  hasUnwritten,
  initialSessionState,
  isFlushed,
  refusal,
  type SessionInput,
  sessionTransition,
} from './sessionState.js'
import { writeCheckpoint } from './writeCheckpoint.js'

const endsStep = (event: SessionEvent): boolean => event.type === 'step/end'
const ignore = (): void => {}

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
  const label = sessionLabel(sessionId)
  // What the store holds, append-only (the state counts how much of it is written), and the
  // remote requests that waited when it was read.
  let { events, records, remote } = read
  let state = initialSessionState
  const dispatch = (input: SessionInput): void => {
    state = sessionTransition(state, input)
  }
  const loaded = (rows: DecodedSession) => {
    ;({ events, records, remote } = rows)
    const { journalSeq, remoteApplied } = rows
    dispatch({ type: 'loaded', events: events.length, records: records.length, journalSeq, remoteApplied })
  }
  loaded(read)
  let lease: SessionLease | undefined
  let failure: SessionStoreError | undefined
  let closing: Promise<void> | undefined
  let chain: Promise<void> = Promise.resolve()
  /** The last remote edit the owner noted: applied from the next `flush()` on (see there). */
  let noted = 0

  // Emits the failure once, to subscribers before and after it: what stops the agent (R54).
  const failed = new AsyncSubject<SessionStoreError>()
  const fail = (reason: unknown): SessionStoreError => {
    if (failure) return failure
    dispatch({ type: 'lease-lost' })
    failure = databaseError(sessionId, 'write any more (it lost its lease)', reason)
    failed.next(failure)
    failed.complete()
    return failure
  }
  const refused = (why: 'failed' | 'closed' | 'no-lease'): SessionStoreError => {
    if (why === 'failed' && failure) return failure
    const what =
      why === 'no-lease'
        ? 'the store holds no lease, so it cannot append; call store.takeLease() before creating the agent'
        : 'the store is closed; open the session again to write'
    return new SessionStoreError(label, `${label}: ${what}`)
  }
  const refuse = (): void => {
    const why = refusal(state)
    if (why) throw refused(why)
  }

  /** Writes what is buffered as one checkpoint, after the checkpoints before it. */
  const checkpoint = (): Promise<void> => {
    const run = chain.then(async () => {
      if (failure) throw failure
      if (!hasUnwritten(state)) return
      if (!lease) return refuse()
      const before = state
      dispatch({ type: 'checkpoint-started' })
      const applied = state.editsApplied
      const batch = {
        events: events.slice(before.eventsTaken, state.eventsTaken),
        records: records.slice(before.recordsTaken, state.recordsTaken),
      }
      try {
        await writeCheckpoint(lease, sessionId, batch.events, batch.records, applied)
        dispatch({ type: 'checkpoint-written', applied })
      } catch (error) {
        dispatch({ type: 'checkpoint-failed', events: before.eventsTaken, records: before.recordsTaken })
        if (error instanceof LeaseLostError || lease.lost) throw fail(lease.lost ?? error)
        throw databaseError(sessionId, 'write the checkpoint', error, true)
      }
    })
    dispatch({ type: 'checkpoint-queued' })
    const settled = () => dispatch({ type: 'checkpoint-settled' })
    chain = run.then(settled, settled)
    return run
  }

  const takeOnce = async (): Promise<void> => {
    const why = refusal(state)
    if (why === undefined) return
    if (why !== 'no-lease') throw refused(why)
    const taken = await takeLease(pool, sessionId, ms).catch((error: unknown) => {
      throw error instanceof Error && error.name === 'SessionLockedError'
        ? error
        : databaseError(sessionId, 'take its lease', error)
    })
    try {
      loaded(await readCompacted(taken, sessionId))
    } catch (error) {
      await taken.release()
      throw databaseError(sessionId, 'read the session', error)
    }
    lease = taken
    dispatch({ type: 'lease-taken' })
    taken.onLost(fail)
  }
  let taking: Promise<void> | undefined

  const store: PostgresSessionStore = {
    sessionId,
    get epoch() {
      return lease?.epoch
    },
    get failure() {
      return failure
    },
    failed$: failed.asObservable(),
    get remoteSends() {
      return remote.filter(isPendingSend)
    },
    get remoteRequests() {
      return remote
    },
    remoteRequests$: defer(() =>
      followRemoteRequests(pool, sessionId, remote, state.journalSeq, ms, options.pollMs ?? 1_000),
    ),
    get remoteSends$() {
      return store.remoteRequests$.pipe(filter(isPendingSend))
    },
    noteRemoteApplied: (seq) => {
      noted = Math.max(noted, seq)
    },
    load: () => events.slice(),
    append: (batch) => {
      refuse()
      for (const event of batch) events.push(event)
      dispatch({ type: 'appended', events: batch.length, records: 0 })
      // R85: each step is committed when it ends, so followers (transcript$, attach) see it then,
      // not at the turn end. Nobody waits for this checkpoint: one that fails leaves its events
      // to the turn end's (R40), and one that finds the lease lost fails the store (R54).
      if (batch.some(endsStep)) checkpoint().catch(ignore)
    },
    inbox: {
      load: () => records.slice(),
      append: (batch) => {
        refuse()
        for (const record of batch) records.push(record)
        dispatch({ type: 'appended', events: 0, records: batch.length })
      },
    },
    flush: () => {
      if (failure) throw failure
      // What the edit did reaches the store in the hand-over just before this call, a microtask
      // after the owner noted it (`session.flush()`): counted from here, an edit is never written
      // as applied without what it did, by a checkpoint of a step's end that starts in between.
      if (noted > 0) dispatch({ type: 'remote-applied', seq: noted })
      return isFlushed(state) ? alreadyFlushed : defer(() => from(checkpoint()))
    },
    takeLease: () => {
      // One attempt at a time: two at once would contend with each other for the lock.
      taking ??= takeOnce().finally(() => {
        taking = undefined
      })
      return taking
    },
    release: () => {
      if (!closing) {
        dispatch({ type: 'release' })
        closing = checkpoint()
          .catch(() => {})
          .then(() => lease?.release())
      }
      return closing
    },
    close: () => {
      void store.release()
    },
  }
  return store
}
