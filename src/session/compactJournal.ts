import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import type { InboxRecord } from '../contracts/inbox.js'
import type { JournalReplay } from './replayJournal.js'
import { syncDirectory } from './writeDurably.js'

/**
 * The shortest journal that folds (`replayJournal`) to `replay` again, and to the same result as
 * the journal it came from when more records follow: every settlement (`outcome()` answers from
 * them after a resume), then one `add` per waiting item, queue then outbox, each in its order,
 * with its placement, its turn guard and its latest content.
 */
export const compactRecords = (replay: JournalReplay): InboxRecord[] => {
  const records: InboxRecord[] = []
  for (const [id, outcome] of replay.settled) records.push({ op: 'settle', id, outcome })
  for (const { message, placement, turn } of [...replay.queue, ...replay.outbox])
    records.push(
      turn === undefined ? { op: 'add', message, placement } : { op: 'add', message, placement, turn },
    )
  return records
}

/** Bytes gathered before each write while a file is rewritten. */
const BATCH = 1 << 20

/**
 * Replaces the file `target` by `lines` atomically: they are written to `temp` (created or
 * truncated), fsynced, renamed over `target`, and the directory is fsynced so the rename is
 * durable. A crash at any moment leaves either the old file or the new one complete (and maybe a
 * stale `temp`, which the caller removes next time: it holds the writer lock, so nobody else
 * writes `temp`). Returns the byte length written. On failure `temp` is removed and the error
 * thrown as it came; `target` is as it was unless the rename was done (then it is the new file).
 */
export const rewriteAtomically = (target: string, temp: string, lines: Iterable<string>): number => {
  let fd: number | undefined
  let renamed = false
  let bytes = 0
  try {
    fd = openSync(temp, 'w', 0o666)
    let batch: string[] = []
    let batchLength = 0
    const put = () => {
      const data = Buffer.from(batch.join(''))
      for (let offset = 0; offset < data.length; )
        offset += writeSync(fd as number, data, offset, data.length - offset)
      bytes += data.length
      batch = []
      batchLength = 0
    }
    for (const line of lines) {
      batch.push(line)
      batchLength += line.length
      if (batchLength >= BATCH) put()
    }
    put()
    fsyncSync(fd)
    closeSync(fd)
    fd = undefined
    renameSync(temp, target)
    renamed = true
    syncDirectory(dirname(target))
    return bytes
  } catch (error) {
    if (fd !== undefined) closeSync(fd)
    if (!renamed) removeQuietly(temp)
    throw error
  }
}

/** Removes `file` if it is there; a file that cannot be removed is left. */
export const removeQuietly = (file: string): void => {
  try {
    unlinkSync(file)
  } catch {
    // Not there, or not ours to remove: it harms nothing, the next open tries again.
  }
}
