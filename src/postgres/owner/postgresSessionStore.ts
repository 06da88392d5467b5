import type { Observable } from 'rxjs'
import type { InboxJournal } from '../../contracts/inbox.js'
import type { SessionStore } from '../../contracts/store.js'
import type { SessionStoreError } from '../../session/storeErrors.js'
import type { PendingRemoteRequest, PendingRemoteSend } from '../rows/pendingRemoteRequests.js'

/** A session store on PostgreSQL (R53), as `openPostgresSession` returns it. */
export type PostgresSessionStore = SessionStore & {
  readonly sessionId: string
  /** The inbox journal (R50), in `steerable_inbox`. */
  readonly inbox: InboxJournal
  /**
   * Whether the session was there when it was last read: an owner has taken its lease, or a
   * client has sent into it (`connectSessions`). A name no one has used yet reads as empty.
   */
  readonly exists: boolean
  /** The epoch of this store's lease (R54); `undefined` while it holds none. */
  readonly epoch: number | undefined
  /**
   * The remote sends (R55) waiting in the journal when the session was read (at the open, and
   * again at `takeLease()`), in journal order, that the owner has not applied yet. They are not
   * in `inbox.load()`: applying them is the owner's.
   */
  readonly remoteSends: readonly PendingRemoteSend[]
  /**
   * `remoteSends`, then each remote send stored after the last read, as it commits, in journal
   * order: what the owner applies (R55). The sessions a process owns on one pool share one LISTEN
   * connection while subscribed.
   */
  readonly remoteSends$: Observable<PendingRemoteSend>
  /**
   * Every request from other processes the owner has not applied yet, in journal order: the
   * remote sends (as `remoteSends`) and the remote edits (R55, R58) after the last one an owner
   * applied (see `noteRemoteApplied`).
   */
  readonly remoteRequests: readonly PendingRemoteRequest[]
  /** `remoteRequests`, then each request stored after the last read, as it commits (R55). */
  readonly remoteRequests$: Observable<PendingRemoteRequest>
  /**
   * The owner applied the remote edit numbered `seq` in the journal, and hands over what it did
   * with its next `flush()`: the checkpoint of that flush records it in the same transaction, so
   * no later owner applies it again (and a checkpoint that does not commit leaves it to be
   * applied again). A checkpoint started before that flush (at a step's end) does not record it.
   */
  noteRemoteApplied(seq: number): void
  /** Why this store stopped writing for good (its lease was lost), once it did. */
  readonly failure: SessionStoreError | undefined
  /** Emits `failure` once, when the store fails for good (at once if it already has), then completes. */
  readonly failed$: Observable<SessionStoreError>
  /**
   * Takes the session's lease (R54) and reads the session again, so that what `load()` returns is
   * what the new owner continues from: take it before creating the agent. Rejects with
   * `SessionLockedError` while another process holds it.
   */
  takeLease(): Promise<void>
  /** Writes what is still buffered, then releases the lease; resolves when done. */
  release(): Promise<void>
}
