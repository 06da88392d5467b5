import { closeSync, constants, fstatSync, ftruncateSync, open, openSync, unlinkSync } from 'node:fs'
import { dirname } from 'node:path'
import type { SessionEvent } from '../contracts/events.js'
import type { InboxJournal, InboxRecord } from '../contracts/inbox.js'
import { compactRecords, rewriteAtomically } from './compactJournal.js'
import { checkRecordLine, journalLine } from './journalLine.js'
import { readJsonLines } from './readLog.js'
import { deliveredIds, replayJournal } from './replayJournal.js'
import { SessionLogError, type SessionStoreError, storeError } from './storeErrors.js'
import { syncDirectory, syncDirectoryAsync, writeDurably, writeDurablySync } from './writeDurably.js'

/** The inbox journal of the session log at `logPath`: the sibling file `<logPath>.inbox`. */
export const inboxJournalPath = (logPath: string): string => `${logPath}.inbox`

/** A file store's inbox journal (R50) and what the store does with its file. */
export type InboxJournalFile = {
  readonly journal: InboxJournal
  /** Repairs made when it was opened (a torn last line that was cut off). */
  readonly warnings: readonly string[]
  /** Writes what was appended since the last write at the end of the file, and fsyncs. */
  write(done: (error: SessionStoreError | null) => void): void
  /** `close()`'s part: what is still unwritten, synchronously, then the descriptor is closed. */
  writeLastAndClose(): void
  /** Closes the descriptor without writing (the store did not open after all). */
  abandon(): void
}

/**
 * Opens (or, when there is none, prepares to create at the first write) the inbox journal of the
 * session log `logPath`, whose writer lock the caller holds. Reads and validates it like the log
 * (a corrupt line throws `SessionLogError` naming the journal and line, file untouched; a torn
 * last line is cut off). When it holds records that no longer matter (items settled, delivered
 * — `events` holds their ids — or changed since), it is rewritten atomically as its compacted form
 * (`compactRecords`); a crash during that leaves the old journal whole. File system errors are
 * `SessionStoreError`s naming the log.
 */
export const openInboxJournal = (logPath: string, events: readonly SessionEvent[]): InboxJournalFile => {
  const file = inboxJournalPath(logPath)
  const temp = `${file}.tmp`
  /** What the file system refused, as a `SessionStoreError` naming the log (and `target`). */
  const fail =
    (action: string, target = file, retried = false) =>
    (error: unknown) =>
      storeError(logPath, action, error, target, retried)
  removeLeftover(temp, fail(`remove ${temp}, the leftover of a compaction of its inbox journal`, temp))
  let fd = openIfThere(file, fail(`open its inbox journal ${file}`))
  let records: InboxRecord[] = []
  let warnings: string[] = []
  let durableBytes = 0
  let missingNewline = false
  let directorySynced = fd !== undefined
  if (fd !== undefined) {
    try {
      const contents = readJsonLines(file, fd, checkRecordLine, fail(`read its inbox journal ${file}`))
      records = contents.values
      warnings = contents.warnings
      const compacted = compactRecords(replayJournal(records, deliveredIds(events)))
      if (compacted.length < records.length) {
        closeSync(fd)
        fd = undefined
        durableBytes = rewrite(file, temp, compacted, fail(`compact its inbox journal ${file}`))
        records = compacted
        fd = openSync(file, constants.O_RDWR)
      } else {
        durableBytes = contents.validBytes
        missingNewline = contents.missingNewline
        if (fstatSync(fd).size > durableBytes) ftruncateSync(fd, durableBytes)
      }
    } catch (error) {
      if (fd !== undefined) closeSync(fd)
      throw error instanceof SessionLogError ? error : fail(`open its inbox journal ${file}`)(error)
    }
  }
  /** Records from this index on have no line yet; the lines made and not yet durable wait. */
  let serialized = records.length
  let unwritten: string[] = missingNewline ? ['\n'] : []

  /** The bytes still to write: lines made once, so a retry writes the same bytes again. */
  const pending = (): Buffer => {
    for (; serialized < records.length; serialized++) unwritten.push(journalLine(records[serialized]!))
    return Buffer.from(unwritten.join(''))
  }
  const wrote = (bytes: number) => {
    durableBytes += bytes
    unwritten = []
  }
  const writeFailed = fail(`write its inbox journal ${file}`, file, true)

  return {
    journal: {
      load: () => records.slice(),
      append: (batch) => {
        for (const record of batch) records.push(record)
      },
    },
    warnings,
    write: (done) => {
      let data: Buffer
      try {
        data = pending()
      } catch (error) {
        return done(writeFailed(error))
      }
      if (data.length === 0) return done(null)
      const ready = (error: Error | null, opened: number) => {
        if (opened >= 0) fd = opened
        if (error) return done(writeFailed(error))
        writeDurably(opened, data, durableBytes, (failure) => {
          if (failure) return done(writeFailed(failure))
          wrote(data.length)
          done(null)
        })
      }
      if (fd !== undefined && directorySynced) return ready(null, fd)
      createAndSync(file, fd, (error, opened) => {
        if (!error) directorySynced = true
        ready(error, opened)
      })
    },
    writeLastAndClose: () => {
      try {
        const data = pending()
        if (data.length === 0) return
        fd ??= openSync(file, constants.O_RDWR | constants.O_CREAT, 0o666)
        if (!directorySynced) syncDirectory(dirname(file))
        directorySynced = true
        writeDurablySync(fd, data, durableBytes)
        wrote(data.length)
      } catch (error) {
        throw fail(`write the last records of its inbox journal ${file} while closing`)(error)
      } finally {
        if (fd !== undefined) closeSync(fd)
        fd = undefined
      }
    },
    abandon: () => {
      if (fd !== undefined) closeSync(fd)
      fd = undefined
    },
  }
}

const openIfThere = (file: string, fail: (error: unknown) => Error): number | undefined => {
  try {
    return openSync(file, constants.O_RDWR)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw fail(error)
  }
}

const removeLeftover = (temp: string, fail: (error: unknown) => Error): void => {
  try {
    unlinkSync(temp)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw fail(error)
  }
}

const rewrite = (file: string, temp: string, records: InboxRecord[], fail: (e: unknown) => Error) => {
  try {
    return rewriteAtomically(file, temp, records.map(journalLine))
  } catch (error) {
    throw fail(error)
  }
}

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
