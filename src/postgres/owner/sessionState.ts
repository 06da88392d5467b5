/**
 * Where a session store on PostgreSQL stands (`openPostgresSession`), as data: its phase, how
 * much of what it holds is written, and how far the owner got in applying remote edits. The
 * store's shell holds the I/O (the lease, the checkpoint chain, the failure to throw) and the
 * events and records themselves, append-only; this record holds only counts into them, so a
 * transition is cheap and pure.
 *
 * - `reading`: opened; it reads any session, holds no lease, appends nothing.
 * - `owning`: it holds the lease (R54): it appends, and each checkpoint writes what is unwritten.
 * - `closing`: `release()` was called: what is buffered is written, then the lease goes; it
 *   refuses everything else.
 * - `failed`: it lost its lease (R54): it writes nothing more, ever.
 */
export type SessionPhase = 'reading' | 'owning' | 'closing' | 'failed'

export type SessionState = {
  readonly phase: SessionPhase
  /** The number of the journal's last row when the session was read: remote requests after it are new. */
  readonly journalSeq: number
  /** How many events and inbox records the store holds (read, then appended). */
  readonly events: number
  readonly records: number
  /**
   * How many of them are written or being written: the rest go with the next checkpoint (R40).
   * What is unwritten is always the tail: a checkpoint takes all of it, and one that fails puts it
   * back in front of what came meanwhile.
   */
  readonly eventsTaken: number
  readonly recordsTaken: number
  /**
   * The last remote edit row applied: as written in the database, and as noted by the owner since
   * (written with the next checkpoint, together with what the edit did).
   */
  readonly editsWritten: number
  readonly editsApplied: number
  /** Checkpoints queued or under way. */
  readonly writing: number
}

export type SessionInput =
  /** The session was read (at the open, and again under a new lease): it holds what it read. */
  | {
      readonly type: 'loaded'
      readonly events: number
      readonly records: number
      readonly journalSeq: number
      readonly remoteApplied: number
    }
  | { readonly type: 'lease-taken' }
  | { readonly type: 'appended'; readonly events: number; readonly records: number }
  /** The owner applied the remote edit numbered `seq` and handed over what it did. */
  | { readonly type: 'remote-applied'; readonly seq: number }
  | { readonly type: 'checkpoint-queued' }
  /** A checkpoint takes what is unwritten: from the `…Taken` counts before to those after. */
  | { readonly type: 'checkpoint-started' }
  | { readonly type: 'checkpoint-written'; readonly applied: number }
  /** A checkpoint failed: what it took (from these counts on) is unwritten again. */
  | { readonly type: 'checkpoint-failed'; readonly events: number; readonly records: number }
  | { readonly type: 'checkpoint-settled' }
  | { readonly type: 'lease-lost' }
  | { readonly type: 'release' }

/** A store just read, before `loaded`: it holds nothing. */
export const initialSessionState: SessionState = Object.freeze({
  phase: 'reading',
  journalSeq: 0,
  events: 0,
  records: 0,
  eventsTaken: 0,
  recordsTaken: 0,
  editsWritten: 0,
  editsApplied: 0,
  writing: 0,
})

/** The state after `input`; the same object when `input` changes nothing in this phase. */
export const sessionTransition = (state: SessionState, input: SessionInput): SessionState => {
  switch (input.type) {
    case 'loaded':
      return {
        ...state,
        journalSeq: input.journalSeq,
        events: input.events,
        records: input.records,
        eventsTaken: input.events,
        recordsTaken: input.records,
        editsWritten: input.remoteApplied,
        editsApplied: input.remoteApplied,
      }
    case 'lease-taken':
      // A store released or failed meanwhile stays so; one that owns already has nothing to take.
      return state.phase === 'reading' ? { ...state, phase: 'owning' } : state
    case 'appended':
      if (state.phase !== 'owning' || (input.events === 0 && input.records === 0)) return state
      return { ...state, events: state.events + input.events, records: state.records + input.records }
    case 'remote-applied':
      // A store that cannot write any more records nothing: the edit stays for the next owner.
      if (state.phase !== 'owning' || input.seq <= state.editsApplied) return state
      return { ...state, editsApplied: input.seq }
    case 'checkpoint-queued':
      return { ...state, writing: state.writing + 1 }
    case 'checkpoint-started':
      if (state.eventsTaken === state.events && state.recordsTaken === state.records) return state
      return { ...state, eventsTaken: state.events, recordsTaken: state.records }
    case 'checkpoint-written':
      return input.applied > state.editsWritten ? { ...state, editsWritten: input.applied } : state
    case 'checkpoint-failed':
      // Kept, in order, for the next checkpoint (R40); a store that lost its lease never writes them.
      if (state.eventsTaken === input.events && state.recordsTaken === input.records) return state
      return { ...state, eventsTaken: input.events, recordsTaken: input.records }
    case 'checkpoint-settled':
      return { ...state, writing: state.writing - 1 }
    case 'lease-lost':
      return state.phase === 'failed' ? state : { ...state, phase: 'failed' }
    case 'release':
      return state.phase === 'reading' || state.phase === 'owning' ? { ...state, phase: 'closing' } : state
  }
}

/** Why the store refuses to append (or to take a lease, unless `no-lease`); `undefined`: it owns. */
export const refusal = (state: SessionState): 'failed' | 'closed' | 'no-lease' | undefined =>
  state.phase === 'failed'
    ? 'failed'
    : state.phase === 'closing'
      ? 'closed'
      : state.phase === 'reading'
        ? 'no-lease'
        : undefined

/** Whether a checkpoint has something to write: events, records, or how far remote edits got. */
export const hasUnwritten = (state: SessionState): boolean =>
  state.events > state.eventsTaken ||
  state.records > state.recordsTaken ||
  state.editsApplied > state.editsWritten

/** Whether `flush()` has nothing to wait for: no checkpoint under way, nothing unwritten. */
export const isFlushed = (state: SessionState): boolean => state.writing === 0 && !hasUnwritten(state)
