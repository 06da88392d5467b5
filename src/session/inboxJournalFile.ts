import { closeSync, constants, open, openSync } from 'node:fs'
import { dirname } from 'node:path'
import type { InboxJournal, InboxRecord } from '../contracts/inbox.js'
import { type FileTail, nextFileTail } from './fileTail.js'
import { journalLine } from './journalLine.js'
import { type SessionStoreError, storeError } from './storeErrors.js'
import { syncDirectory, syncDirectoryAsync, writeDurably, writeDurablySync } from './writeDurably.js'

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
  /** `undefined` until the file exists (it is created at its first write) and after it is closed. */
  #fd: number | undefined
  readonly #records: InboxRecord[]
  /** Records from this index on have no line in the tail yet (lines are made at the next write). */
  #serialized: number
  #tail: FileTail
  /** Whether the file's name is durable: it was there when opened, or its directory was fsynced. */
  #named: boolean

  constructor(
    logPath: string,
    fd: number | undefined,
    records: InboxRecord[],
    warnings: string[],
    tail: FileTail,
  ) {
    this.warnings = warnings
    this.#logPath = logPath
    this.#fd = fd
    this.#records = records
    this.#serialized = records.length
    this.#tail = tail
    this.#named = fd !== undefined
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
    if (this.#tail.buffered === '') return done(null)
    this.#tail = nextFileTail(this.#tail, WRITE)
    const data = Buffer.from(this.#tail.writing ?? '')
    const settle = (error: Error | null) => {
      this.#tail = nextFileTail(this.#tail, error ? FAILED : { type: 'written', bytes: data.length })
      done(error ? failed(error) : null)
    }
    const ready = (error: Error | null, opened: number) => {
      if (opened >= 0) this.#fd = opened
      if (error) return settle(error)
      writeDurably(opened, data, this.#tail.end, settle)
    }
    if (this.#fd !== undefined && this.#named) return ready(null, this.#fd)
    createAndSync(file, this.#fd, (error, opened) => {
      if (!error) this.#named = true
      ready(error, opened)
    })
  }

  /** `close()`'s part: what is still unwritten, synchronously, then the descriptor is closed. */
  writeLastAndClose(): void {
    const file = inboxJournalPath(this.#logPath)
    try {
      this.#serialize()
      if (this.#tail.buffered === '') return
      this.#fd ??= openSync(file, constants.O_RDWR | constants.O_CREAT, 0o666)
      if (!this.#named) syncDirectory(dirname(file))
      this.#named = true
      this.#tail = nextFileTail(this.#tail, WRITE)
      const data = Buffer.from(this.#tail.writing ?? '')
      writeDurablySync(this.#fd, data, this.#tail.end)
      this.#tail = nextFileTail(this.#tail, { type: 'written', bytes: data.length })
    } catch (error) {
      throw journalFailure(
        this.#logPath,
        `write the last records of its inbox journal ${file} while closing`,
      )(error)
    } finally {
      this.abandon()
    }
  }

  /** Closes the descriptor without writing (the store did not open after all, or is closed). */
  abandon(): void {
    if (this.#fd !== undefined) closeSync(this.#fd)
    this.#fd = undefined
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

/**
 * The journal's descriptor (opened, and created if need be, when `fd` is `undefined`), once the
 * directory is fsynced so that a created file's name is durable too.
 */
const createAndSync = (file: string, fd: number | undefined, done: (e: Error | null, fd: number) => void) => {
  const synced = (opened: number) => syncDirectoryAsync(dirname(file), (error) => done(error, opened))
  if (fd !== undefined) return synced(fd)
  open(file, constants.O_RDWR | constants.O_CREAT, 0o666, (error, opened) =>
    error ? done(error, -1) : synced(opened),
  )
}
