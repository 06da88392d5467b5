import { constants } from 'node:fs'
import { Observable, type Subscriber } from 'rxjs'
import type { SessionEvent } from '../contracts/events.js'
import type { InboxJournal } from '../contracts/inbox.js'
import { errorText } from '../messages/errorText.js'
import type { WriterLock } from './fileLock.js'
import type { Pieces } from './fileTail.js'
import type { InboxJournalFile } from './inboxJournalFile.js'
import type { LogContents } from './readLog.js'
import { storeError } from './storeError.js'
import { SessionStoreError } from './storeErrors.js'
import { nextStoreWrites, type StoreWrites, type StoreWritesEvent, storeWrites } from './storeWrites.js'
import { writeFileDurably, writeFileDurablySync } from './writeDurably.js'

/** A flush waiting for its turn; `active` until its subscriber unsubscribes. */
type Flush = { readonly subscriber: Subscriber<void>; active: boolean }
/** The place of a `close()` that waits for the checkpoint in flight. */
const CLOSE = 'close'

/**
 * The open store: a thin shell of I/O around its writes, a pure record (`StoreWrites`). It holds
 * no closures while idle (its methods are on the prototype) and no file descriptor (each write
 * opens the log and closes it), so an agent that keeps a session open keeps a few small objects
 * for it (docs/performance.md#what-an-open-file-store-holds).
 */
export class LogFileStore {
  readonly path: string
  readonly warnings: readonly string[]
  readonly inbox: InboxJournal
  readonly #events: SessionEvent[]
  readonly #lock: WriterLock
  readonly #journal: InboxJournalFile
  #writes: StoreWrites
  /** What waits for the checkpoint in flight, in order; made when something first waits. */
  #waiting: (Flush | typeof CLOSE)[] | undefined

  constructor(path: string, lock: WriterLock, contents: LogContents, journal: InboxJournalFile) {
    this.path = path
    this.warnings = [...contents.warnings, ...journal.warnings]
    this.inbox = journal
    this.#events = contents.values
    this.#lock = lock
    this.#journal = journal
    this.#writes = storeWrites(contents.validBytes, contents.missingNewline ? '\n' : '')
  }

  load(): readonly SessionEvent[] {
    return this.#events.slice()
  }

  /**
   * Buffers the events' lines for the next checkpoint. All or nothing: the lines are made first,
   * so an event that cannot be written as one JSON line (longer than the longest string V8
   * holds) throws `SessionStoreError` and nothing of the batch is taken; the agent keeps the
   * events and hands them over again (R40).
   */
  append(batch: readonly SessionEvent[]): void {
    const lines = batch.map((event) => this.#line(event))
    for (let i = 0; i < batch.length; i++) {
      this.#events.push(batch[i] as SessionEvent)
      this.#writes = nextStoreWrites(this.#writes, { type: 'append', text: lines[i] as string }).state
    }
  }

  #line(event: SessionEvent): string {
    try {
      return `${JSON.stringify(event)}\n`
    } catch (error) {
      const why =
        error instanceof RangeError
          ? "one JSON line cannot be longer than the longest string the JavaScript engine holds (about 512 MiB): keep a tool's or a message's content smaller, or store large data elsewhere and send a reference"
          : 'it is not plain JSON: a store is handed the events the agent made, as they are'
      throw new SessionStoreError(
        this.path,
        `${this.path}: cannot write event ${event.seq} (${errorText(error)}); ${why}`,
        error,
      )
    }
  }

  flush(): Observable<void> {
    return new Observable<void>((subscriber) => {
      const flush: Flush = { subscriber, active: true }
      if (this.#writes.checkpoint) this.#wait(flush)
      else this.#start(flush)
      return () => {
        flush.active = false
      }
    })
  }

  close(): void {
    this.#feed({ type: 'close' }, undefined)
  }

  #wait(waiter: Flush | typeof CLOSE): void {
    this.#waiting ??= []
    this.#waiting.push(waiter)
  }

  /** A flush's turn: the checkpoint starts, or the closed store refuses it. */
  #start(flush: Flush): void {
    if (!flush.active) return this.#next()
    this.#feed({ type: 'flush' }, flush)
  }

  /** The next flush (or the last write of a `close()`) that waited for the checkpoint now over. */
  #next(): void {
    const waiter = this.#waiting?.shift()
    if (this.#waiting?.length === 0) this.#waiting = undefined
    if (waiter === undefined) return
    if (waiter !== CLOSE) return this.#start(waiter)
    try {
      this.#feed({ type: 'last-write' }, undefined)
    } catch {
      // Nobody is left to tell: close() has returned. The events stay in the agent's memory.
    }
    this.#next()
  }

  /** Feeds `event` to the record and does the I/O it asks for, for `flush` (the one in turn). */
  #feed(event: StoreWritesEvent, flush: Flush | undefined): void {
    const { state, effects } = nextStoreWrites(this.#writes, event)
    this.#writes = state
    for (const effect of effects) {
      switch (effect.kind) {
        case 'checkpoint': {
          // The log and the journal are written side by side; the checkpoint is over when both are.
          writeFileDurably(this.path, constants.O_RDWR, effect.text, effect.at, (error, bytes) =>
            this.#feed(
              error
                ? {
                    type: 'log-failed',
                    error: storeError(this.path, 'write the checkpoint', error, this.path, true),
                  }
                : { type: 'log-written', bytes },
              flush,
            ),
          )
          this.#journal.write((error) => this.#feed({ type: 'journal-settled', error }, flush))
          break
        }
        case 'report':
          if (flush?.active)
            effect.failure ? flush.subscriber.error(effect.failure) : flush.subscriber.complete()
          this.#feed({ type: 'reported' }, undefined)
          this.#next()
          break
        case 'refuse':
          flush?.subscriber.error(
            new SessionStoreError(
              this.path,
              `${this.path}: the store is closed; open it again with fileStore(path) to write`,
            ),
          )
          this.#next()
          break
        case 'close-later':
          this.#wait(CLOSE)
          break
        case 'write-last':
          this.#writeLastAndClose(effect.text, effect.at)
      }
    }
  }

  /**
   * `close()`'s part: the events and inbox records never flushed, at the end of each file, then
   * fsync and release. Both are tried; the first failure is thrown.
   */
  #writeLastAndClose(text: Pieces, at: number): void {
    let failure: unknown
    try {
      if (text.length > 0) writeFileDurablySync(this.path, constants.O_RDWR, text, at)
    } catch (error) {
      failure = storeError(this.path, 'write its last events while closing', error)
    }
    try {
      this.#journal.writeLastAndClose()
    } catch (error) {
      failure ??= error
    }
    this.#lock.release()
    if (failure !== undefined) throw failure
  }
}
