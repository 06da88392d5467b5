import { existsSync, readFileSync } from 'node:fs'
import type { SessionEvent } from '../contracts/events.js'
import type { InboxRecord } from '../contracts/inbox.js'
import { inboxRecordSchema } from '../session/inboxRecordSchema.js'
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

type Check = (value: unknown) => { success: boolean; data?: unknown; error?: { message: string } }

const readLines = (file: string, warnings: string[], check: Check): unknown[] => {
  const values: unknown[] = []
  const lines = readFileSync(file, 'utf8').split('\n')
  lines.forEach((line, index) => {
    if (line.trim() === '') return
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      warnings.push(`${file}:${index + 1}: left out a line that is not JSON`)
      return
    }
    const checked = check(value)
    if (checked.success) values.push(value)
    else warnings.push(`${file}:${index + 1}: left out an invalid line`)
  })
  return values
}
