import { closeSync, existsSync, openSync } from 'node:fs'
import type { SessionEvent } from '../contracts/events.js'
import type { InboxRecord } from '../contracts/inbox.js'
import { eachLine } from '../session/eachLine.js'
import { inboxRecordSchema } from '../session/inboxRecordSchema.js'
import { parseLine } from '../session/readLog.js'
import { sessionEventSchema } from '../session/sessionEventSchema.js'
import { recordFromSession } from './fromSession.js'
import type { TimelineRecord } from './types.js'

/** What `readSessionFile` read: the record, and the lines it had to leave out. */
export type SessionFileRecord = { readonly record: TimelineRecord; readonly warnings: readonly string[] }

/**
 * Reads a file store's session log (JSON Lines) and, when there is one, its inbox journal
 * (`<path>.inbox`) into a timeline record, without opening the store: nothing is locked,
 * repaired or written, so a session another process is running can be viewed. A line that is
 * not a valid event (a torn last line, say) is left out and named in `warnings`.
 */
export const readSessionFile = (path: string): SessionFileRecord => {
  const warnings: string[] = []
  const events = readLines(path, warnings, (value) => sessionEventSchema.safeParse(value)) as SessionEvent[]
  const journalPath = `${path}.inbox`
  const journal = existsSync(journalPath)
    ? (readLines(journalPath, warnings, (value) => inboxRecordSchema.safeParse(value)) as InboxRecord[])
    : []
  return { record: recordFromSession(events, { journal }), warnings }
}

type Check = (value: unknown) => { success: boolean }

const blank = (text: Buffer | string): boolean =>
  typeof text === 'string' ? text.trim() === '' : text.every((b) => b === 0x20 || b === 0x09 || b === 0x0d)

/**
 * The values of the JSON Lines `file` that pass `check`, read line by line as the store reads its
 * log (`eachLine`), so a log the store can reopen is never one string here either. Unlike the
 * store, every bad line, not only a torn last one, is left out and named in `warnings`.
 */
const readLines = (file: string, warnings: string[], check: Check): unknown[] => {
  const values: unknown[] = []
  let line = 0
  const take = (text: Buffer | string) => {
    line++
    if (blank(text)) return
    const parsed = parseLine(text, values.length, (value) =>
      check(value).success ? { value } : { problem: 'invalid' },
    )
    if (parsed.ok) values.push(parsed.value)
    else if (parsed.torn)
      warnings.push(`${file}:${line}: left out a line that is not JSON (${parsed.problem})`)
    else warnings.push(`${file}:${line}: left out an invalid line`)
  }
  const fd = openSync(file, 'r')
  try {
    const { tail } = eachLine(fd, take, (error) => error as Error)
    if (tail !== undefined) take(tail)
  } finally {
    closeSync(fd)
  }
  return values
}
