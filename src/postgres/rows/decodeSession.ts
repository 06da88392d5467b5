import type { SessionEvent } from '../../contracts/events.js'
import type { InboxRecord } from '../../contracts/inbox.js'
import { checkRecordLine } from '../../session/journalLine.js'
import { checkEvent } from '../../session/sessionEventSchema.js'
import { SessionStoreError } from '../../session/storeErrors.js'
import { sessionLabel } from '../db/databaseErrors.js'
import type { JournalRow, SessionRows } from '../db/readSession.js'
import { isRemoteRequest, type PendingRemoteRequest, pendingRemoteRequests } from './pendingRemoteRequests.js'

/** A session's rows, checked and decoded: what its store holds in memory. */
export type DecodedSession = {
  readonly events: SessionEvent[]
  /** The inbox records of the journal (R50): what `inbox.load()` returns. */
  readonly records: InboxRecord[]
  /** The requests from other processes no owner has applied yet, in journal order. */
  readonly remote: PendingRemoteRequest[]
  /** The number of the journal's last row (0: none). */
  readonly journalSeq: number
  /** The journal number of the last remote edit an owner applied (0: none). */
  readonly remoteApplied: number
  /** The session has its row (see `SessionRows`). */
  readonly exists: boolean
}

/**
 * Checks and decodes the rows of `sessionId` as a file store checks its log and journal lines
 * (R37): every event in `seq` order, then every inbox record, then every remote request. A row
 * that does not pass is a `SessionStoreError` naming the session and the row, and nothing is
 * changed.
 */
export const decodeSession = (sessionId: string, read: SessionRows): DecodedSession => {
  const events = read.events.map((value, index) => checkedEvent(sessionId, value, index))
  const records = inboxRecords(sessionId, read.journal, (row) => !isRemoteRequest(row))
  return {
    events,
    records,
    remote: pendingRemoteRequests(sessionId, read.journal, records, events, read.remoteApplied),
    journalSeq: read.journal.at(-1)?.seq ?? 0,
    remoteApplied: read.remoteApplied,
    exists: read.exists,
  }
}

const checkedEvent = (sessionId: string, value: unknown, index: number): SessionEvent => {
  const problem = checkEvent(value, index)
  if (!problem) return value as SessionEvent
  const label = sessionLabel(sessionId)
  throw new SessionStoreError(
    label,
    `${label}: event row ${index + 1} is not a valid event (${problem.message}); ` +
      'nothing was changed: fix or delete the row in steerable_events, then open the session again',
  )
}

/**
 * The inbox records of a journal (R50), checked like the lines of a file store's journal; rows of
 * other kinds (`isRecord` says which) are left out.
 */
const inboxRecords = (
  sessionId: string,
  rows: readonly JournalRow[],
  isRecord: (row: JournalRow) => boolean,
): InboxRecord[] =>
  rows.filter(isRecord).map((row) => {
    const checked = checkRecordLine(row.record, 0)
    if ('value' in checked) return checked.value
    const label = sessionLabel(sessionId)
    throw new SessionStoreError(
      label,
      `${label}: inbox journal row ${row.seq}: ${checked.problem}; nothing was changed: ` +
        'fix or delete the row in steerable_inbox, then open the session again',
    )
  })
