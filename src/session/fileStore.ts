import { closeSync, constants, fstatSync, ftruncateSync, openSync } from 'node:fs'
import { resolve } from 'node:path'
import type { InboxJournal } from '../contracts/inbox.js'
import type { SessionStore } from '../contracts/store.js'
import { acquireLock } from './fileLock.js'
import type { InboxJournalFile } from './inboxJournalFile.js'
import { LogFileStore } from './logFileStore.js'
import { openInboxJournal } from './openInboxJournal.js'
import { readLog } from './readLog.js'
import { storeError } from './storeError.js'
import { SessionLogError } from './storeErrors.js'
import { nameStore } from './storeIds.js'

export type FileStore = SessionStore & {
  readonly path: string
  /** Repairs made when the log and its inbox journal were opened (a torn last line cut off). */
  readonly warnings: readonly string[]
  /** The inbox journal (R50), in the sibling file `<path>.inbox`. */
  readonly inbox: InboxJournal
}

/**
 * A session log as JSON Lines, one event a line, append-only (R35, R37). Opening reads and
 * validates the whole log synchronously: a corrupt line throws `SessionLogError` (file untouched),
 * a torn last line is cut off and listed in `warnings`. One writer per file: a second opener
 * (while the first is alive) gets `SessionLockedError`. Whatever the file system refuses (a missing
 * directory, a permission, a full disk) is a `SessionStoreError` naming the log path.
 *
 * Appends are buffered in memory and written behind the agent at each `flush()` (a checkpoint),
 * which writes at the known end of the valid log and fsyncs. A failed write keeps the buffer and
 * the next flush rewrites it at the same position, so a partial write never leaves a gap or a
 * duplicate.
 *
 * The inbox journal (R50) lives beside the log in `<path>.inbox` (JSON Lines, one record a line),
 * covered by the same writer lock, created at its first write. It is read and validated like the
 * log when the store opens (a corrupt line is a `SessionLogError` naming the journal), compacted
 * then when it holds records that no longer matter, buffered by `inbox.append`, and written at the
 * same checkpoints: `flush()` completes once both files are durable.
 */
export const fileStore = (path: string): FileStore => {
  const lock = acquireLock(path)
  let fd: number | undefined
  let journal: InboxJournalFile | undefined
  try {
    fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o666)
    const contents = readLog(path, fd)
    journal = openInboxJournal(path, contents.values)
    // Only a torn last line is cut off; a log that did not open was not touched (R37).
    if (fstatSync(fd).size > contents.validBytes) ftruncateSync(fd, contents.validBytes)
    // Each write opens the log again: an idle session holds no descriptor.
    const opened = fd
    fd = undefined
    closeSync(opened)
    // forkSession names the source by its absolute path: a relative one would name another file.
    return nameStore(new LogFileStore(path, lock, contents, journal), resolve(path))
  } catch (error) {
    if (fd !== undefined) closeSync(fd)
    lock.release()
    throw error instanceof SessionLogError
      ? error
      : storeError(path, 'open the session log for reading and writing', error)
  }
}
