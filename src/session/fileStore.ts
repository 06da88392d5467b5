import { closeSync, constants, fstatSync, ftruncateSync, openSync } from 'node:fs'
import { Observable } from 'rxjs'
import type { SessionEvent } from '../contracts/events.js'
import type { InboxJournal } from '../contracts/inbox.js'
import type { SessionStore } from '../contracts/store.js'
import { acquireLock } from './fileLock.js'
import { type InboxJournalFile, openInboxJournal } from './inboxJournalFile.js'
import { readLog } from './readLog.js'
import { SessionLogError, SessionStoreError, storeError } from './storeErrors.js'
import { writeDurably, writeDurablySync } from './writeDurably.js'

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
  const release = acquireLock(path)
  let fd: number | undefined
  let contents: ReturnType<typeof readLog>
  let journal: InboxJournalFile | undefined
  try {
    fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o666)
    contents = readLog(path, fd)
    journal = openInboxJournal(path, contents.values)
    // Only a torn last line is cut off; a log that did not open was not touched (R37).
    if (fstatSync(fd).size > contents.validBytes) ftruncateSync(fd, contents.validBytes)
  } catch (error) {
    journal?.abandon()
    if (fd !== undefined) closeSync(fd)
    release()
    throw error instanceof SessionLogError
      ? error
      : storeError(path, 'open the session log for reading and writing', error)
  }
  const events: SessionEvent[] = contents.values
  let durableBytes = contents.validBytes
  let pending: string[] = contents.missingNewline ? ['\n'] : []
  let writing = false
  let closed = false
  const waiting: (() => void)[] = []

  const inbox = journal
  const next = () => {
    writing = false
    waiting.shift()?.()
  }

  /**
   * `close()`'s part: the events and inbox records never flushed, at the end of each file, then
   * fsync and release. Both are tried; the first failure is thrown.
   */
  const writeLastAndClose = (): void => {
    let failure: unknown
    try {
      const data = Buffer.from(pending.join(''))
      if (data.length > 0) {
        writeDurablySync(fd, data, durableBytes)
        durableBytes += data.length
      }
    } catch (error) {
      failure = storeError(path, 'write its last events while closing', error)
    }
    try {
      inbox.writeLastAndClose()
    } catch (error) {
      failure ??= error
    }
    try {
      closeSync(fd)
    } finally {
      release()
    }
    if (failure !== undefined) throw failure
  }

  return {
    path,
    warnings: [...contents.warnings, ...inbox.warnings],
    inbox: inbox.journal,
    load: () => events.slice(),
    append: (batch) => {
      for (const event of batch) {
        events.push(event)
        pending.push(`${JSON.stringify(event)}\n`)
      }
    },
    flush: () =>
      new Observable<void>((subscriber) => {
        let active = true
        const run = () => {
          if (!active) return next()
          if (closed) {
            subscriber.error(
              new SessionStoreError(
                path,
                `${path}: the store is closed; open it again with fileStore(path) to write`,
              ),
            )
            return next()
          }
          writing = true
          const lines = pending
          pending = []
          const data = Buffer.from(lines.join(''))
          // The log and the journal are written side by side; the checkpoint is done when both are.
          let left = 2
          let failure: Error | undefined
          const settle = (error: Error | null) => {
            failure ??= error ?? undefined
            if (--left > 0) return
            if (active) failure ? subscriber.error(failure) : subscriber.complete()
            next()
          }
          writeDurably(fd, data, durableBytes, (error) => {
            if (error) {
              pending = lines.concat(pending) // kept for the next checkpoint (R40)
              return settle(storeError(path, 'write the checkpoint', error, path, true))
            }
            durableBytes += data.length
            settle(null)
          })
          inbox.write(settle)
        }
        if (writing) waiting.push(run)
        else run()
        return () => {
          active = false
        }
      }),
    close: () => {
      if (closed) return
      closed = true
      if (!writing) return writeLastAndClose()
      // A checkpoint's write is still in flight (dispose() stopped waiting for a slow flush):
      // writing now would write over it at the same position, and closing the descriptor would
      // fail it. The last events follow it instead; the lock is released after them.
      waiting.push(() => {
        try {
          writeLastAndClose()
        } catch {
          // Nobody is left to tell: close() has returned. The events stay in the agent's memory.
        }
        next()
      })
    },
  }
}
