import { constants } from 'node:fs'
import { dirname } from 'node:path'
import type { InboxJournal, InboxRecord } from '../contracts/inbox.js'
import { type FileTail, NO_TEXT, nextFileTail } from './fileTail.js'
import { journalLine } from './journalLine.js'
import { storeError } from './storeError.js'
import type { SessionStoreError } from './storeErrors.js'
import { syncDirectory, syncDirectoryAsync, writeFileDurably, writeFileDurablySync } from './writeDurably.js'

/** The inbox journal of the session log at `logPath`: the sibling file `<logPath>.inbox`. */
export const inboxJournalPath = (logPath: string): string => `${logPath}.inbox`

/** What the file system refused, as a `SessionStoreError` naming the log (and `target`). */
export const journalFailure =
  (logPath: string, action: string, target = inboxJournalPath(logPath), retried = false) =>
  (error: unknown) =>
    storeError(logPath, action, error, target, retried)

/**
 * A file store's inbox journal (R50) and what the store does with its file: the records in memory,
 * and the file's tail (`FileTail`, a pure record) behind this thin shell of I/O. A class with its
 * methods on the prototype: an open store keeps it for as long as it is open.
 */
export class InboxJournalFile implements InboxJournal {
  /** Repairs made when it was opened (a torn last line that was cut off). */
  readonly warnings: readonly string[]
  readonly #logPath: string
  readonly #records: InboxRecord[]
  /** Records from this index on have no line in the tail yet (lines are made at the next write). */
  #serialized: number
  #tail: FileTail
  /** Whether the file's name is durable: it was there when opened, or its directory was fsynced. */
  #named: boolean

  constructor(
    logPath: string,
    /** Whether the file exists (else it is created at its first write). */
    exists: boolean,
    records: InboxRecord[],
    warnings: string[],
    tail: FileTail,
  ) {
    this.warnings = warnings
    this.#logPath = logPath
    this.#records = records
    this.#serialized = records.length
    this.#tail = tail
    this.#named = exists
  }

  load(): readonly InboxRecord[] {
    return this.#records.slice()
  }

  append(batch: readonly InboxRecord[]): void {
    for (const record of batch) this.#records.push(record)
  }

  /** Writes what was appended since the last write at the end of the file, and fsyncs. */
  write(done: (error: SessionStoreError | null) => void): void {
    const file = inboxJournalPath(this.#logPath)
    const failed = journalFailure(this.#logPath, `write its inbox journal ${file}`, file, true)
    try {
      this.#serialize()
    } catch (error) {
      return done(failed(error))
    }
    if (this.#tail.buffered.length === 0) return done(null)
    this.#tail = nextFileTail(this.#tail, WRITE)
    const pieces = this.#tail.writing ?? NO_TEXT
    let written = 0
    const settle = (error: Error | null) => {
      this.#tail = nextFileTail(this.#tail, error ? FAILED : { type: 'written', bytes: written })
      done(error ? failed(error) : null)
    }
    // Created at its first write, and its name made durable (the directory fsynced) before the
    // write counts; later writes never create it again (a vanished journal is an error).
    const named = this.#named
    const flags = named ? constants.O_RDWR : constants.O_RDWR | constants.O_CREAT
    writeFileDurably(file, flags, pieces, this.#tail.end, (error, bytes) => {
      written = bytes
      if (error || named) return settle(error)
      syncDirectoryAsync(dirname(file), (failure) => {
        if (!failure) this.#named = true
        settle(failure)
      })
    })
  }

  /** `close()`'s part: what is still unwritten, synchronously, then the descriptor is closed. */
  writeLastAndClose(): void {
    const file = inboxJournalPath(this.#logPath)
    try {
      this.#serialize()
      if (this.#tail.buffered.length === 0) return
      this.#tail = nextFileTail(this.#tail, WRITE)
      const flags = this.#named ? constants.O_RDWR : constants.O_RDWR | constants.O_CREAT
      const bytes = writeFileDurablySync(file, flags, this.#tail.writing ?? NO_TEXT, this.#tail.end)
      if (!this.#named) syncDirectory(dirname(file))
      this.#named = true
      this.#tail = nextFileTail(this.#tail, { type: 'written', bytes })
    } catch (error) {
      throw journalFailure(
        this.#logPath,
        `write the last records of its inbox journal ${file} while closing`,
      )(error)
    }
  }

  /** Lines for the records appended since: made once, so a retry writes the same bytes again. */
  #serialize(): void {
    for (; this.#serialized < this.#records.length; this.#serialized++)
      this.#tail = nextFileTail(this.#tail, {
        type: 'append',
        text: journalLine(this.#records[this.#serialized]!),
      })
  }
}

const WRITE = Object.freeze({ type: 'write' as const })
const FAILED = Object.freeze({ type: 'failed' as const })
