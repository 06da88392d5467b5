import { closeSync, constants, fstatSync, ftruncateSync, openSync, unlinkSync } from 'node:fs'
import type { SessionEvent } from '../contracts/events.js'
import type { InboxRecord } from '../contracts/inbox.js'
import { compactRecords, rewriteAtomically } from './compactJournal.js'
import { fileTail } from './fileTail.js'
import { InboxJournalFile, inboxJournalPath, journalFailure } from './inboxJournalFile.js'
import { checkRecordLine, journalLine } from './journalLine.js'
import { readJsonLines } from './readLog.js'
import { deliveredIds, replayJournal } from './replayJournal.js'
import { SessionLogError } from './storeErrors.js'

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
  removeLeftover(
    temp,
    journalFailure(logPath, `remove ${temp}, the leftover of a compaction of its inbox journal`, temp),
  )
  const failedOpen = journalFailure(logPath, `open its inbox journal ${file}`)
  let fd = openIfThere(file, failedOpen)
  if (fd === undefined) return new InboxJournalFile(logPath, false, [], [], fileTail(0))
  try {
    const contents = readJsonLines(
      file,
      fd,
      checkRecordLine,
      journalFailure(logPath, `read its inbox journal ${file}`),
    )
    const compacted = compactRecords(replayJournal(contents.values, deliveredIds(events)))
    if (compacted.length < contents.values.length) {
      closeSync(fd)
      fd = undefined
      const end = rewrite(file, temp, compacted, journalFailure(logPath, `compact its inbox journal ${file}`))
      return new InboxJournalFile(logPath, true, compacted, contents.warnings, fileTail(end))
    }
    if (fstatSync(fd).size > contents.validBytes) ftruncateSync(fd, contents.validBytes)
    const tail = fileTail(contents.validBytes, contents.missingNewline ? '\n' : '')
    // Each write opens the journal again: an idle session holds no descriptor.
    const opened = fd
    fd = undefined
    closeSync(opened)
    return new InboxJournalFile(logPath, true, contents.values, contents.warnings, tail)
  } catch (error) {
    if (fd !== undefined) closeSync(fd)
    throw error instanceof SessionLogError ? error : failedOpen(error)
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
