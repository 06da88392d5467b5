import type { SessionEvent } from '../../contracts/events.js'
import type { InboxRecord } from '../../contracts/inbox.js'
import { journalLine } from '../../session/journalLine.js'

/**
 * One checkpoint as the columns `writeCheckpoint` inserts (each array one column, `unnest`ed into
 * rows): the events keyed by their own `seq`, and the inbox records with their `op` and, for an
 * `add`, the message id copied out of the record (unique in a session's journal, so an `add`
 * already there is not added again). Events and records are stored as JSON of whatever they are;
 * `decodeSession` checks them when they are read back.
 */
export type CheckpointRows = {
  readonly eventSeqs: number[]
  readonly events: string[]
  readonly ops: string[]
  readonly messageIds: (string | null)[]
  readonly records: string[]
}

export const checkpointRows = (
  events: readonly SessionEvent[],
  records: readonly InboxRecord[],
): CheckpointRows => ({
  eventSeqs: events.map((e) => e.seq),
  events: events.map((e) => JSON.stringify(e)),
  ops: records.map((r) => r.op),
  messageIds: records.map(addedId),
  records: records.map((r) => journalLine(r).slice(0, -1)),
})

/** The message id of an `add` record (unique in a session's journal); null for other records. */
const addedId = (record: InboxRecord): string | null => (record.op === 'add' ? record.message.id : null)
