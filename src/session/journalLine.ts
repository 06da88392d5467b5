import type { InboxRecord, Outcome } from '../contracts/inbox.js'
import { safeParse } from '../messages/safeParse.js'
import { inboxRecordSchema } from './inboxRecordSchema.js'
import type { LineCheck } from './readLog.js'

/**
 * One inbox record as a line of the journal. Everything in a record is plain JSON but the
 * `reason` of a blocked outcome and the `error` of a refused one, which come from outside code:
 * those are written as JSON can hold them (an `Error` as `{name, message}`, anything JSON refuses
 * or cannot read as a description), so writing the journal never throws on them.
 */
export const journalLine = (record: InboxRecord): string => {
  if (record.op !== 'settle') return `${JSON.stringify(record)}\n`
  return `${JSON.stringify({ op: 'settle', id: record.id, outcome: jsonOutcome(record.outcome) })}\n`
}

const jsonOutcome = (outcome: Outcome): Outcome => {
  if (outcome.kind === 'blocked') return { kind: 'blocked', reason: jsonValue(outcome.reason) }
  if (outcome.kind === 'refused') return { kind: 'refused', error: jsonValue(outcome.error) }
  return outcome
}

const jsonValue = (value: unknown): unknown => {
  try {
    if (value instanceof Error) return { name: String(value.name), message: String(value.message) }
    const text = JSON.stringify(value)
    return text === undefined ? undefined : JSON.parse(text)
  } catch {
    return describe(value)
  }
}

const describe = (value: unknown): string => {
  try {
    return String(value)
  } catch {
    return 'a value that cannot be read'
  }
}

/** Checks one line of a journal as it is read back. */
export const checkRecordLine: LineCheck<InboxRecord> = (value) => {
  const result = safeParse(inboxRecordSchema, value)
  if (result.success) return { value: value as InboxRecord }
  const issue = result.error.issues[0]
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : ''
  return { problem: `invalid inbox record: ${where}${issue?.message ?? 'not a record'}` }
}
