import type { SessionEvent } from '../contracts/events.js'
import type { InboxRecord } from '../contracts/inbox.js'
import { sendOptionsSchema } from '../messages/schemas.js'
import { checkRecordLine } from '../session/journalLine.js'
import { deliveredIds } from '../session/replayJournal.js'
import { SessionStoreError } from '../session/storeErrors.js'
import { sessionLabel } from './databaseErrors.js'
import type { JournalRow } from './readSession.js'
import { REMOTE_SEND_OP, type RemoteSendRecord } from './remoteSendRecord.js'

/** A remote send not applied yet, with its number in the session's journal. */
export type PendingRemoteSend = { readonly seq: number; readonly record: RemoteSendRecord }

/** Whether a journal row is a remote send (a request), not an inbox record. */
export const isRemoteSend = (row: JournalRow): boolean => row.op === REMOTE_SEND_OP

/**
 * The remote sends of a journal that the owner has not applied yet, in journal order: those
 * whose id has no inbox record (an `add`, or a `settle` of a refusal) and is not in the
 * transcript. Each is checked like an inbox record: the message as an `add`'s, the options as
 * `send`'s.
 */
export const pendingRemoteSends = (
  sessionId: string,
  rows: readonly JournalRow[],
  records: readonly InboxRecord[],
  events: readonly SessionEvent[],
): PendingRemoteSend[] => {
  const applied = deliveredIds(events)
  for (const record of records)
    applied.add(
      record.op === 'add' ? record.message.id : record.op === 'replace' ? record.message.id : record.id,
    )
  return rows
    .filter(isRemoteSend)
    .map((row) => ({ seq: row.seq, record: checkRemoteSend(sessionId, row) }))
    .filter(({ record }) => !applied.has(record.message.id))
}

/** A remote send row, checked: the message as an `add`'s is, the options as `send`'s are. */
export const checkRemoteSend = (sessionId: string, row: JournalRow): RemoteSendRecord => {
  const value = row.record as { op?: unknown; message?: unknown; options?: unknown } | null
  const message = checkRecordLine({ op: 'add', message: value?.message, placement: 'queued' }, 0)
  const options = sendOptionsSchema.safeParse(value?.options)
  if ('value' in message && options.success && Object.keys(value ?? {}).length === 3)
    return value as RemoteSendRecord
  const label = sessionLabel(sessionId)
  const problem = 'problem' in message ? message.problem : 'invalid send options'
  throw new SessionStoreError(
    label,
    `${label}: inbox journal row ${row.seq} is not a valid remote send (${problem}); nothing was changed: ` +
      'fix or delete the row in steerable_inbox, then open the session again',
  )
}
