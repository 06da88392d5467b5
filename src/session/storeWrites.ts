import { type FileTail, fileTail, NO_TEXT, nextFileTail, type Pieces } from './fileTail.js'

/**
 * What a file store is writing, as a pure record: its log's tail (what is durable, buffered, in
 * flight), the checkpoint in flight and whether the store is closed. `fileStore` keeps one and
 * does the I/O its effects ask for, feeding each outcome back as an event.
 *
 * One checkpoint at a time: a flush that comes while one is in flight waits in the store's
 * mailbox and is handed over (`flush`) once the checkpoint is over, in order.
 */
export type StoreWrites = {
  readonly log: FileTail
  /** The checkpoint in flight, from its start until its flush has been told how it went. */
  readonly checkpoint: Checkpoint | undefined
  /**
   * `closing`: `close()` came while a checkpoint was in flight; the last write waits for it (and
   * takes what is appended meanwhile). `closed`: the last write has been asked for.
   */
  readonly phase: 'open' | 'closing' | 'closed'
}

/** A checkpoint writes the log and the inbox journal side by side; it is over once both are. */
export type Checkpoint = {
  /** Whether the journal's half has settled (the log's has once `log.writing` is `undefined`). */
  readonly journalDone: boolean
  /** The first failure of either half: what the flush is told once both have settled. */
  readonly failure: Error | undefined
  /** Whether the flush has been asked to be told (`report`), waiting for `reported`. */
  readonly over: boolean
}

export type StoreWritesEvent =
  /** `append(events)`: their lines. Written by the next checkpoint, or by `close()`. */
  | { readonly type: 'append'; readonly text: string }
  /** A flush's turn: no checkpoint is in flight. */
  | { readonly type: 'flush' }
  | { readonly type: 'log-written'; readonly bytes: number }
  | { readonly type: 'log-failed'; readonly error: Error }
  | { readonly type: 'journal-settled'; readonly error: Error | null }
  /** The checkpoint's flush has been told; the next flush waiting may go. */
  | { readonly type: 'reported' }
  /** `close()`. */
  | { readonly type: 'close' }
  /** The turn of a `close()` that waited for the checkpoint in flight. */
  | { readonly type: 'last-write' }

export type StoreWritesEffect =
  /** Write `text` at `at` of the log, and the journal's records since its last write, side by side. */
  | { readonly kind: 'checkpoint'; readonly text: Pieces; readonly at: number }
  /** Tell the checkpoint's flush (an error when `failure` is given), then feed `reported`. */
  | { readonly kind: 'report'; readonly failure: Error | undefined }
  /** The store is closed: the flush fails with `SessionStoreError`. */
  | { readonly kind: 'refuse' }
  /** Feed `last-write` once the checkpoint in flight is over (behind the flushes waiting now). */
  | { readonly kind: 'close-later' }
  /** Write `text` at `at` of the log and what the journal holds unwritten, close both, unlock. */
  | { readonly kind: 'write-last'; readonly text: Pieces; readonly at: number }

export type StoreWritesStep = {
  readonly state: StoreWrites
  readonly effects: readonly StoreWritesEffect[]
}

/** A store just opened: its valid log is `end` bytes long, and `buffered` is to be written first. */
export const storeWrites = (end: number, buffered = ''): StoreWrites => ({
  log: fileTail(end, buffered),
  checkpoint: undefined,
  phase: 'open',
})

const NONE: readonly StoreWritesEffect[] = Object.freeze([])
const REFUSE: readonly StoreWritesEffect[] = Object.freeze([Object.freeze({ kind: 'refuse' as const })])
const CLOSE_LATER: readonly StoreWritesEffect[] = Object.freeze([
  Object.freeze({ kind: 'close-later' as const }),
])
const STARTED: Checkpoint = Object.freeze({ journalDone: false, failure: undefined, over: false })
const WRITE = Object.freeze({ type: 'write' as const })
const FAILED = Object.freeze({ type: 'failed' as const })
const same = (state: StoreWrites): StoreWritesStep => ({ state, effects: NONE })

/**
 * The store's writes after `event`, and the I/O to do, in order. An event that does not apply
 * (an append after the last write, an outcome of no write in flight, a second `close()`) changes
 * nothing and returns `state` itself.
 */
export const nextStoreWrites = (state: StoreWrites, event: StoreWritesEvent): StoreWritesStep => {
  const { log, checkpoint } = state
  switch (event.type) {
    case 'append': {
      // After the last write nothing is written any more; `load()` still shows the events.
      if (state.phase === 'closed') return same(state)
      const next = nextFileTail(log, event)
      return next === log ? same(state) : { state: { ...state, log: next }, effects: NONE }
    }
    case 'flush': {
      if (checkpoint) return same(state)
      if (state.phase !== 'open') return { state, effects: REFUSE }
      const next = nextFileTail(log, WRITE)
      const effect = { kind: 'checkpoint' as const, text: next.writing ?? NO_TEXT, at: next.end }
      return { state: { log: next, checkpoint: STARTED, phase: state.phase }, effects: [effect] }
    }
    case 'log-written':
    case 'log-failed': {
      if (!checkpoint || log.writing === undefined) return same(state)
      const written = event.type === 'log-written'
      const next = nextFileTail(log, written ? { type: 'written', bytes: event.bytes } : FAILED)
      const failure = checkpoint.failure ?? (written ? undefined : event.error)
      return settled({ ...state, log: next, checkpoint: { ...checkpoint, failure } })
    }
    case 'journal-settled': {
      if (!checkpoint || checkpoint.journalDone) return same(state)
      const failure = checkpoint.failure ?? event.error ?? undefined
      return settled({ ...state, checkpoint: { ...checkpoint, journalDone: true, failure } })
    }
    case 'reported':
      return checkpoint?.over ? { state: { ...state, checkpoint: undefined }, effects: NONE } : same(state)
    case 'close':
      if (state.phase !== 'open') return same(state)
      // A write in flight would be written over at the same position, and closing the descriptor
      // would fail it: the last write follows it instead.
      if (checkpoint) return { state: { ...state, phase: 'closing' }, effects: CLOSE_LATER }
      return lastWrite(state)
    case 'last-write':
      return state.phase === 'closing' && !checkpoint ? lastWrite(state) : same(state)
  }
}

/** Once both halves of the checkpoint have settled, its flush is to be told. */
const settled = (state: StoreWrites): StoreWritesStep => {
  const { checkpoint } = state
  if (!checkpoint?.journalDone || state.log.writing !== undefined) return { state, effects: NONE }
  return {
    state: { ...state, checkpoint: { ...checkpoint, over: true } },
    effects: [{ kind: 'report', failure: checkpoint.failure }],
  }
}

const lastWrite = (state: StoreWrites): StoreWritesStep => ({
  state: { ...state, phase: 'closed' },
  effects: [{ kind: 'write-last', text: state.log.buffered, at: state.log.end }],
})
