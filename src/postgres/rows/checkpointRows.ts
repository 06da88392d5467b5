import type { SessionEvent } from '../../contracts/events.js'
import type { InboxRecord } from '../../contracts/inbox.js'
import { carriedId } from '../../session/deliveredOutcome.js'
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
  /** Per record, whether it is waiting work (`sessionsWithWork`): an `add` of a `queued` item. */
  readonly pending: boolean[]
  /** The ids whose remote sends no longer wait: added, settled or delivered in this checkpoint. */
  readonly sendsAnswered: string[]
  /** The ids whose queued `add`s no longer wait: settled or delivered in this checkpoint. */
  readonly addsAnswered: string[]
}

export const checkpointRows = (
  events: readonly SessionEvent[],
  records: readonly InboxRecord[],
): CheckpointRows => {
  const answered = new Set<string>()
  for (const event of events) {
    const id = carriedId(event)
    if (id !== undefined) answered.add(id)
  }
  for (const record of records) if (record.op === 'settle') answered.add(record.id)
  const added = records.flatMap((r) => (r.op === 'add' ? [r.message.id] : []))
  return {
    eventSeqs: events.map((e) => e.seq),
    events: events.map((e) => JSON.stringify(e)),
    ops: records.map((r) => r.op),
    messageIds: records.map(addedId),
    records: records.map((r) => journalLine(r).slice(0, -1)),
    pending: records.map((r) => r.op === 'add' && r.placement === 'queued'),
    sendsAnswered: [...new Set([...answered, ...added])],
    addsAnswered: [...answered],
  }
}

/** The message id of an `add` record (unique in a session's journal); null for other records. */
const addedId = (record: InboxRecord): string | null => (record.op === 'add' ? record.message.id : null)
