import {
  closeSync,
  constants,
  fstatSync,
  fsync,
  fsyncSync,
  ftruncateSync,
  openSync,
  write,
  writeSync,
} from 'node:fs'
import { Observable } from 'rxjs'
import type { SessionEvent } from '../contracts/events.js'
import type { SessionStore } from '../contracts/store.js'
import { acquireLock } from './fileLock.js'
import { readLog } from './readLog.js'
import { SessionLogError, SessionStoreError, storeError } from './storeErrors.js'

export type FileStore = SessionStore & {
  readonly path: string
  /** Repairs made when the log was opened (a torn last line that was cut off). */
  readonly warnings: readonly string[]
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
 */
export const fileStore = (path: string): FileStore => {
  const release = acquireLock(path)
  let fd: number | undefined
  let contents: ReturnType<typeof readLog>
  try {
    fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o666)
    contents = readLog(path, fd)
    // Only a torn last line is cut off; a log that did not open was not touched (R37).
    if (fstatSync(fd).size > contents.validBytes) ftruncateSync(fd, contents.validBytes)
  } catch (error) {
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

  const next = () => {
    writing = false
    waiting.shift()?.()
  }
  /** Writes `data` at `position`, looping over partial writes, then fsyncs. */
  const writeDurably = (data: Buffer, position: number, done: (error: Error | null) => void) => {
    const from = (offset: number) => {
      if (offset === data.length) return fsync(fd, done)
      write(fd, data, offset, data.length - offset, position + offset, (error, written) =>
        error ? done(error) : from(offset + written),
      )
    }
    from(0)
  }

  /** `close()`'s part: the events never flushed, at the end of the log, then fsync and release. */
  const writeLastAndClose = (): void => {
    try {
      const data = Buffer.from(pending.join(''))
      if (data.length > 0) {
        writeSync(fd, data, 0, data.length, durableBytes)
        fsyncSync(fd)
        durableBytes += data.length
      }
    } catch (error) {
      throw storeError(path, 'write its last events while closing', error)
    } finally {
      closeSync(fd)
      release()
    }
  }

  return {
    path,
    warnings: contents.warnings,
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
          writeDurably(data, durableBytes, (error) => {
            if (error) {
              pending = lines.concat(pending) // kept for the next checkpoint (R40)
              if (active) subscriber.error(storeError(path, 'write the checkpoint', error, path, true))
            } else {
              durableBytes += data.length
              if (active) subscriber.complete()
            }
            next()
          })
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
