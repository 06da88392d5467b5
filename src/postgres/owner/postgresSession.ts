import { AsyncSubject, defer, filter, from, type Observable } from 'rxjs'
import type { SessionEvent } from '../../contracts/events.js'
import type { InboxJournal, InboxRecord } from '../../contracts/inbox.js'
import { alreadyFlushed } from '../../session/memoryStore.js'
import { SessionStoreError } from '../../session/storeErrors.js'
import { databaseError, LeaseLostError, sessionLabel } from '../db/databaseErrors.js'
import type { PostgresPool } from '../db/pgTypes.js'
import type { DecodedSession } from '../rows/decodeSession.js'
import {
  isPendingSend,
  type PendingRemoteRequest,
  type PendingRemoteSend,
} from '../rows/pendingRemoteRequests.js'
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
 * An open PostgreSQL session (see `openPostgresSession`): the shell around its `SessionState`,
 * which does the reads and writes the transitions ask for and feeds their outcomes back.
 */
export class PostgresSession implements PostgresSessionStore {
  readonly sessionId: string
  readonly #pool: PostgresPool
  readonly #ms: number
  readonly #label: string
  // What the store holds, append-only (the state counts how much of it is written), and the
  // remote requests that waited when it was read.
  #events: SessionEvent[] = []
  #records: InboxRecord[] = []
  #remote: readonly PendingRemoteRequest[] = []
  #exists = false
  #state = initialSessionState
  #lease: SessionLease | undefined
  #failure: SessionStoreError | undefined
  #closing: Promise<void> | undefined
  #chain: Promise<void> = Promise.resolve()
  #taking: Promise<void> | undefined
  /** The last remote edit the owner noted: applied from the next `flush()` on (see there). */
  #noted = 0
  // Emits the failure once, to subscribers before and after it: what stops the agent (R54).
  readonly #failed = new AsyncSubject<SessionStoreError>()
  readonly failed$: Observable<SessionStoreError> = this.#failed.asObservable()
  readonly remoteRequests$: Observable<PendingRemoteRequest>
  readonly inbox: InboxJournal = {
    load: () => this.#records.slice(),
    append: (batch) => {
      this.#refuse()
      for (const record of batch) this.#records.push(record)
      this.#dispatch({ type: 'appended', events: 0, records: batch.length })
    },
  }

  constructor(pool: PostgresPool, sessionId: string, read: DecodedSession, ms: number, pollMs: number) {
    this.sessionId = sessionId
    this.#pool = pool
    this.#ms = ms
    this.#label = sessionLabel(sessionId)
    this.#loaded(read)
    this.remoteRequests$ = defer(() =>
      followRemoteRequests(pool, sessionId, this.#remote, this.#state.journalSeq, ms, pollMs),
    )
  }

  get epoch(): number | undefined {
    return this.#lease?.epoch
  }

  get exists(): boolean {
    return this.#exists
  }

  get failure(): SessionStoreError | undefined {
    return this.#failure
  }

  get remoteSends(): readonly PendingRemoteSend[] {
    return this.#remote.filter(isPendingSend)
  }

  get remoteRequests(): readonly PendingRemoteRequest[] {
    return this.#remote
  }

  get remoteSends$(): Observable<PendingRemoteSend> {
    return this.remoteRequests$.pipe(filter(isPendingSend))
  }

  noteRemoteApplied(seq: number): void {
    this.#noted = Math.max(this.#noted, seq)
  }

  load(): SessionEvent[] {
    return this.#events.slice()
  }

  append(batch: readonly SessionEvent[]): void {
    this.#refuse()
    for (const event of batch) this.#events.push(event)
    this.#dispatch({ type: 'appended', events: batch.length, records: 0 })
    // R85: each step is committed when it ends, so followers (transcript$, attach) see it then,
    // not at the turn end. Nobody waits for this checkpoint: one that fails leaves its events
    // to the turn end's (R40), and one that finds the lease lost fails the store (R54).
    if (batch.some(endsStep)) this.#checkpoint().catch(ignore)
  }

  flush(): Observable<void> {
    if (this.#failure) throw this.#failure
    // What the edit did reaches the store in the hand-over just before this call, a microtask
    // after the owner noted it (`session.flush()`): counted from here, an edit is never written
    // as applied without what it did, by a checkpoint of a step's end that starts in between.
    if (this.#noted > 0) this.#dispatch({ type: 'remote-applied', seq: this.#noted })
    return isFlushed(this.#state) ? alreadyFlushed : defer(() => from(this.#checkpoint()))
  }

  takeLease(): Promise<void> {
    // One attempt at a time: two at once would contend with each other for the lock.
    this.#taking ??= this.#takeOnce().finally(() => {
      this.#taking = undefined
    })
    return this.#taking
  }

  release(): Promise<void> {
    if (!this.#closing) {
      this.#dispatch({ type: 'release' })
      this.#closing = this.#checkpoint()
        .catch(() => {})
        .then(() => this.#lease?.release())
    }
    return this.#closing
  }

  close(): void {
    void this.release()
  }

  #dispatch(input: SessionInput): void {
    this.#state = sessionTransition(this.#state, input)
  }

  #loaded(rows: DecodedSession): void {
    ;({ events: this.#events, records: this.#records, remote: this.#remote, exists: this.#exists } = rows)
    const { journalSeq, remoteApplied } = rows
    this.#dispatch({
      type: 'loaded',
      events: this.#events.length,
      records: this.#records.length,
      journalSeq,
      remoteApplied,
    })
  }

  #fail(reason: unknown): SessionStoreError {
    if (this.#failure) return this.#failure
    this.#dispatch({ type: 'lease-lost' })
    const failure = databaseError(this.sessionId, 'write any more (it lost its lease)', reason)
    this.#failure = failure
    this.#failed.next(failure)
    this.#failed.complete()
    return failure
  }

  #refused(why: 'failed' | 'closed' | 'no-lease'): SessionStoreError {
    if (why === 'failed' && this.#failure) return this.#failure
    const what =
      why === 'no-lease'
        ? 'the store holds no lease, so it cannot append; call store.takeLease() before creating the agent'
        : 'the store is closed; open the session again to write'
    return new SessionStoreError(this.#label, `${this.#label}: ${what}`)
  }

  #refuse(): void {
    const why = refusal(this.#state)
    if (why) throw this.#refused(why)
  }

  /** Writes what is buffered as one checkpoint, after the checkpoints before it. */
  #checkpoint(): Promise<void> {
    const run = this.#chain.then(() => this.#writeBuffered())
    this.#dispatch({ type: 'checkpoint-queued' })
    const settled = () => this.#dispatch({ type: 'checkpoint-settled' })
    this.#chain = run.then(settled, settled)
    return run
  }

  async #writeBuffered(): Promise<void> {
    if (this.#failure) throw this.#failure
    if (!hasUnwritten(this.#state)) return
    const lease = this.#lease
    if (!lease) return this.#refuse()
    const before = this.#state
    this.#dispatch({ type: 'checkpoint-started' })
    const after = this.#state
    const applied = after.editsApplied
    const events = this.#events.slice(before.eventsTaken, after.eventsTaken)
    const records = this.#records.slice(before.recordsTaken, after.recordsTaken)
    try {
      await writeCheckpoint(lease, this.sessionId, events, records, applied)
      this.#dispatch({ type: 'checkpoint-written', applied })
    } catch (error) {
      this.#dispatch({ type: 'checkpoint-failed', events: before.eventsTaken, records: before.recordsTaken })
      if (error instanceof LeaseLostError || lease.lost) throw this.#fail(lease.lost ?? error)
      throw databaseError(this.sessionId, 'write the checkpoint', error, true)
    }
  }

  async #takeOnce(): Promise<void> {
    const why = refusal(this.#state)
    if (why === undefined) return
    if (why !== 'no-lease') throw this.#refused(why)
    const sessionId = this.sessionId
    const taken = await takeLease(this.#pool, sessionId, this.#ms).catch((error: unknown) => {
      throw error instanceof Error && error.name === 'SessionLockedError'
        ? error
        : databaseError(sessionId, 'take its lease', error)
    })
    try {
      this.#loaded(await readCompacted(taken, sessionId))
    } catch (error) {
      await taken.release()
      throw databaseError(sessionId, 'read the session', error)
    }
    this.#lease = taken
    this.#dispatch({ type: 'lease-taken' })
    taken.onLost((reason) => this.#fail(reason))
  }
}
