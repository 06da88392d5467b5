import { AsyncSubject, defer, filter, from } from 'rxjs'
import type { SessionEvent } from '../../contracts/events.js'
import type { InboxRecord } from '../../contracts/inbox.js'
import { alreadyFlushed } from '../../session/memoryStore.js'
import { SessionStoreError } from '../../session/storeErrors.js'
import { type DatabaseOptions, databaseError, LeaseLostError, sessionLabel } from '../db/databaseErrors.js'
import type { PostgresPool } from '../db/pgTypes.js'
import { readSession } from '../db/readSession.js'
import { checkSessionId } from '../db/sessionId.js'
import { DEFAULT_TIMEOUT_MS, withConnection } from '../db/timeouts.js'
import { type DecodedSession, decodeSession } from '../rows/decodeSession.js'
import { isPendingSend, type PendingRemoteRequest } from '../rows/pendingRemoteRequests.js'
import { followRemoteRequests } from './followRemoteRequests.js'
import type { PostgresSessionStore } from './postgresSessionStore.js'
import { type SessionLease, takeLease } from './sessionLease.js'
import { writeCheckpoint } from './writeCheckpoint.js'

/**
 * Opens the session `sessionId` on PostgreSQL (R53): reads its events and inbox journal, checks
 * them (R37), and returns a store that is already loaded. It takes no lease, so it can read any
 * session at any time; appending needs the lease (`store.takeLease()`), and each checkpoint
 * (`flush()`) is one transaction that writes only while this store's lease is the current one.
 * A store that lost its lease fails for good: it writes nothing more, and `append`, `flush` and
 * `inbox.append` throw its `failure` (R54). The tables come from `migrate(pool)`.
 */
export const openPostgresSession = async (
  pool: PostgresPool,
  sessionId: string,
  options: DatabaseOptions & { readonly pollMs?: number } = {},
): Promise<PostgresSessionStore> => {
  checkSessionId(sessionId, 'openPostgresSession()')
  const ms = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  let rows: DecodedSession
  try {
    rows = decodeSession(sessionId, await withConnection(pool, ms, (query) => readSession(query, sessionId)))
  } catch (error) {
    throw databaseError(sessionId, 'read the session', error)
  }
  const label = sessionLabel(sessionId)
  let events: SessionEvent[] = []
  let records: InboxRecord[] = []
  let remote: PendingRemoteRequest[] = []
  let journalSeq = 0
  // The last remote edit row applied: as written in the database, and as noted by the owner since
  // (written with the next checkpoint, together with what the edit did).
  let editsWritten = 0
  let editsApplied = 0
  const loaded = (read: DecodedSession) => {
    journalSeq = read.journalSeq
    events = read.events
    records = read.records
    remote = read.remote
    editsWritten = read.remoteApplied
    editsApplied = read.remoteApplied
  }
  loaded(rows)
  let lease: SessionLease | undefined
  let failure: SessionStoreError | undefined
  let closing: Promise<void> | undefined
  let unwrittenEvents: SessionEvent[] = []
  let unwrittenRecords: InboxRecord[] = []
  let writing = 0
  let chain: Promise<void> = Promise.resolve()

  // Emits the failure once, to subscribers before and after it: what stops the agent (R54).
  const failed = new AsyncSubject<SessionStoreError>()
  const fail = (reason: unknown): SessionStoreError => {
    if (failure) return failure
    failure = databaseError(sessionId, 'write any more (it lost its lease)', reason)
    failed.next(failure)
    failed.complete()
    return failure
  }
  const closed = () =>
    new SessionStoreError(label, `${label}: the store is closed; open the session again to write`)
  const refuse = (): void => {
    if (failure) throw failure
    if (closing) throw closed()
    if (!lease)
      throw new SessionStoreError(
        label,
        `${label}: the store holds no lease, so it cannot append; call store.takeLease() before creating the agent`,
      )
  }

  const unwritten = () =>
    unwrittenEvents.length > 0 || unwrittenRecords.length > 0 || editsApplied > editsWritten

  /** Writes what is buffered as one checkpoint, after the checkpoints before it. */
  const checkpoint = (): Promise<void> => {
    const run = chain.then(async () => {
      if (failure) throw failure
      if (!unwritten()) return
      if (!lease) return refuse()
      const batch = { events: unwrittenEvents, records: unwrittenRecords, applied: editsApplied }
      unwrittenEvents = []
      unwrittenRecords = []
      try {
        await writeCheckpoint(lease, sessionId, batch.events, batch.records, batch.applied)
        editsWritten = Math.max(editsWritten, batch.applied)
      } catch (error) {
        // Kept, in order, for the next checkpoint (R40); a store that lost its lease never writes them.
        unwrittenEvents = batch.events.concat(unwrittenEvents)
        unwrittenRecords = batch.records.concat(unwrittenRecords)
        if (error instanceof LeaseLostError || lease.lost) throw fail(lease.lost ?? error)
        throw databaseError(sessionId, 'write the checkpoint', error, true)
      }
    })
    writing++
    chain = run.then(
      () => void writing--,
      () => void writing--,
    )
    return run
  }

  const takeOnce = async (): Promise<void> => {
    if (failure) throw failure
    if (closing) throw closed()
    if (lease) return
    const taken = await takeLease(pool, sessionId, ms).catch((error: unknown) => {
      throw error instanceof Error && error.name === 'SessionLockedError'
        ? error
        : databaseError(sessionId, 'take its lease', error)
    })
    try {
      loaded(decodeSession(sessionId, await readSession(taken.query, sessionId)))
    } catch (error) {
      await taken.release()
      throw databaseError(sessionId, 'read the session', error)
    }
    lease = taken
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
      followRemoteRequests(pool, sessionId, remote, journalSeq, ms, options.pollMs ?? 1_000),
    ),
    get remoteSends$() {
      return store.remoteRequests$.pipe(filter(isPendingSend))
    },
    noteRemoteApplied: (seq) => {
      // A store that cannot write any more records nothing: the edit stays for the next owner.
      if (lease && !failure && !closing) editsApplied = Math.max(editsApplied, seq)
    },
    load: () => events.slice(),
    append: (batch) => {
      refuse()
      for (const event of batch) {
        events.push(event)
        unwrittenEvents.push(event)
      }
    },
    inbox: {
      load: () => records.slice(),
      append: (batch) => {
        refuse()
        for (const record of batch) {
          records.push(record)
          unwrittenRecords.push(record)
        }
      },
    },
    flush: () => {
      if (failure) throw failure
      const idle = writing === 0 && !unwritten()
      return idle ? alreadyFlushed : defer(() => from(checkpoint()))
    },
    takeLease: () => {
      // One attempt at a time: two at once would contend with each other for the lock.
      taking ??= takeOnce().finally(() => {
        taking = undefined
      })
      return taking
    },
    release: () => {
      closing ??= checkpoint()
        .catch(() => {})
        .then(() => lease?.release())
      return closing
    },
    close: () => {
      void store.release()
    },
  }
  return store
}
