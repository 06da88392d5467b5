import type { SessionEvent } from '../../contracts/events.js'
import type { InboxRecord } from '../../contracts/inbox.js'
import { safeParse } from '../../messages/safeParse.js'
import { sendOptionsSchema } from '../../messages/schemas.js'
import { checkRecordLine } from '../../session/journalLine.js'
import { deliveredIds } from '../../session/replayJournal.js'
import { SessionStoreError } from '../../session/storeErrors.js'
import { sessionLabel } from '../db/databaseErrors.js'
import type { JournalRow } from '../db/readSession.js'
import {
  isRemoteEditOp,
  type RemoteEditRecord,
  remoteCancel,
  remoteCancelToolCall,
  remoteDecide,
  remoteMove,
  remotePromote,
  remoteRemove,
  remoteReplace,
  remoteRollback,
} from './remoteEditRecord.js'
import { REMOTE_SEND_OP, type RemoteSendRecord } from './remoteSendRecord.js'

/** A remote send not applied yet, with its number in the session's journal. */
export type PendingRemoteSend = { readonly seq: number; readonly record: RemoteSendRecord }

/** A remote edit (R55, R58) the owner has not applied yet, with its number in the session's journal. */
export type PendingRemoteEdit = { readonly seq: number; readonly record: RemoteEditRecord }

/** A request from another process, in journal order: a send, or an edit. */
export type PendingRemoteRequest = PendingRemoteSend | PendingRemoteEdit

export const isPendingSend = (request: PendingRemoteRequest): request is PendingRemoteSend =>
  request.record.op === REMOTE_SEND_OP

/** Whether a journal row is a remote send (a request), not an inbox record. */
export const isRemoteSend = (row: JournalRow): boolean => row.op === REMOTE_SEND_OP

/** Whether a journal row is a request from another process (a send or an edit), not an inbox record. */
export const isRemoteRequest = (row: JournalRow): boolean => isRemoteSend(row) || isRemoteEditOp(row.op)

/**
 * The requests of a journal the owner has not applied yet, in journal order: the pending sends
 * (see `pendingRemoteSends`; a send leaves a trace under its own id) and the edits numbered after
 * `editsApplied`, the last edit row an owner applied (an edit leaves no trace of its own, so the
 * owner records how far it got: see `writeCheckpoint`).
 */
export const pendingRemoteRequests = (
  sessionId: string,
  rows: readonly JournalRow[],
  records: readonly InboxRecord[],
  events: readonly SessionEvent[],
  editsApplied: number,
): PendingRemoteRequest[] => {
  const edits: PendingRemoteRequest[] = rows
    .filter((row) => isRemoteEditOp(row.op) && row.seq > editsApplied)
    .map((row) => ({ seq: row.seq, record: checkRemoteEdit(sessionId, row) }))
  return [...pendingRemoteSends(sessionId, rows, records, events), ...edits].sort((a, b) => a.seq - b.seq)
}

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
  const options = safeParse(sendOptionsSchema, value?.options)
  if ('value' in message && options.success && Object.keys(value ?? {}).length === 3)
    return value as RemoteSendRecord
  throw invalidRow(sessionId, row, 'send', 'problem' in message ? message.problem : 'invalid send options')
}

/**
 * A remote edit row, checked as the client checked the call that wrote it (the same checks,
 * made again on the row's values), with exactly the keys it wrote.
 */
export const checkRemoteEdit = (sessionId: string, row: JournalRow): RemoteEditRecord => {
  const value = (row.record ?? {}) as Record<string, unknown>
  // The reason of a decision or of a call's cancel is optional: one more key with it.
  const keys =
    {
      'remote-replace': 3,
      'remote-move': 4,
      'remote-cancel': 4,
      'remote-decide': 5,
      'remote-cancel-call': 3,
    }[row.op] ?? 3
  const reasoned = (row.op === 'remote-decide' || row.op === 'remote-cancel-call') && 'reason' in value
  try {
    if (value.op !== row.op || typeof value.request !== 'string' || value.request === '')
      throw new Error('expected its op and a request id')
    if (Object.keys(value).length !== keys + (reasoned ? 1 : 0)) throw new Error('unexpected keys')
    const message = value.message as { id?: unknown; content?: unknown; source?: unknown } | undefined
    if (row.op === 'remote-remove') remoteRemove(value.id)
    else if (row.op === 'remote-replace')
      remoteReplace(message?.id, { content: message?.content, source: message?.source })
    else if (row.op === 'remote-move') remoteMove(value.id, value.index)
    else if (row.op === 'remote-promote') remotePromote(value.id)
    else if (row.op === 'remote-decide') checkDecision(value)
    else if (row.op === 'remote-cancel-call')
      remoteCancelToolCall(value.callId, 'reason' in value ? { reason: value.reason } : undefined)
    else if (row.op === 'remote-rollback') remoteRollback(value.turns)
    else remoteCancel(value.cause, { keepInbox: value.keepInbox })
    if (row.op === 'remote-replace' && Object.keys(message ?? {}).length !== 3)
      throw new Error('unexpected keys')
    if (row.op === 'remote-cancel' && typeof value.keepInbox !== 'boolean')
      throw new Error('expected keepInbox')
  } catch (error) {
    throw invalidRow(sessionId, row, 'edit', error instanceof Error ? error.message : 'invalid')
  }
  return value as RemoteEditRecord
}

/** A decision row's values, checked as `approve()`/`deny()` checked them. */
const checkDecision = (value: Record<string, unknown>): void => {
  if (value.decision !== 'approved' && value.decision !== 'denied')
    throw new Error("expected the decision 'approved' or 'denied'")
  if (value.source === undefined) throw new Error('expected a source')
  const options =
    'reason' in value ? { reason: value.reason, source: value.source } : { source: value.source }
  remoteDecide(value.decision, value.callId, options)
}

const invalidRow = (sessionId: string, row: JournalRow, what: string, problem: string): SessionStoreError => {
  const label = sessionLabel(sessionId)
  return new SessionStoreError(
    label,
    `${label}: inbox journal row ${row.seq} is not a valid remote ${what} (${problem}); nothing was changed: ` +
      'fix or delete the row in steerable_inbox, then open the session again',
  )
}
