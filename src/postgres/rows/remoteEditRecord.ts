import { randomUUID } from 'node:crypto'
import { InvalidInputError } from '../../contracts/errors.js'
import type {
  AgentCancelCause,
  AgentMessage,
  AgentMessageId,
  MessageSource,
} from '../../contracts/messages.js'
import type { RemoteEdit } from '../../contracts/remote.js'
import { parseCancelArgs } from '../../messages/parseCancelArgs.js'
import { parseCancelToolCall, parseDecision } from '../../messages/parseDecision.js'
import { checkId, checkMove } from '../../messages/parseInboxEdit.js'
import { checkRollbackTurns, rollbackTarget } from '../../messages/parseRollback.js'
import { parseSendValue } from '../../messages/parseSendValue.js'
import { jsonSnapshot } from '../../messages/snapshot.js'
import { messageOf } from '../../messages/userText.js'

/**
 * An inbox edit, a cancel, an approval decision, a tool call's cancel or a rollback from a process
 * that does not drive the session (R55, R58, R65, R71, R77), as its inbox journal row holds it.
 * Like a remote send it is a request, not an inbox record: the owner
 * applies it through its own operation when it reaches it in journal order. `request` is the
 * row's own id (in the row's `message_id` column), so a write retried after an unclear commit is
 * stored once. Its `op`s never collide with the owner's records (`add`, `replace`, `move`,
 * `promote`, `settle`) or with `send`.
 */
export type RemoteEditRecord =
  | { readonly op: 'remote-remove'; readonly request: string; readonly id: AgentMessageId }
  | { readonly op: 'remote-replace'; readonly request: string; readonly message: AgentMessage }
  | {
      readonly op: 'remote-move'
      readonly request: string
      readonly id: AgentMessageId
      readonly index: number
    }
  | { readonly op: 'remote-promote'; readonly request: string; readonly id: AgentMessageId }
  | {
      readonly op: 'remote-cancel'
      readonly request: string
      readonly cause: AgentCancelCause
      readonly keepInbox: boolean
    }
  | {
      readonly op: 'remote-decide'
      readonly request: string
      readonly callId: string
      readonly decision: 'approved' | 'denied'
      readonly reason?: string
      readonly source: MessageSource
    }
  | {
      readonly op: 'remote-cancel-call'
      readonly request: string
      readonly callId: string
      readonly reason?: string
    }
  | { readonly op: 'remote-rollback'; readonly request: string; readonly turns: number }

/** The `op`s of remote edit rows. */
export const REMOTE_EDIT_OPS = [
  'remote-remove',
  'remote-replace',
  'remote-move',
  'remote-promote',
  'remote-cancel',
  'remote-decide',
  'remote-cancel-call',
  'remote-rollback',
] as const satisfies readonly RemoteEditRecord['op'][]

export const isRemoteEditOp = (op: string): op is RemoteEditRecord['op'] =>
  (REMOTE_EDIT_OPS as readonly string[]).includes(op)

const request = (): string => randomUUID()

/** `remove(id)` from a client: the id checked like the local call's (R43). */
export const remoteRemove = (id: unknown): RemoteEditRecord =>
  Object.freeze({ op: 'remote-remove', request: request(), id: checkId(id, 'remove()') })

/** `replace(id, input)` from a client: `input` validated and snapshotted like a send (R44, R1, R2). */
export const remoteReplace = (id: unknown, input: unknown): RemoteEditRecord => {
  const checked = checkId(id, 'replace()')
  const value = parseSendValue(input, 'replace()')
  const message = messageOf(checked, value)
  return Object.freeze({ op: 'remote-replace', request: request(), message })
}

/** `move(id, index)` from a client (R45). */
export const remoteMove = (id: unknown, index: unknown): RemoteEditRecord =>
  Object.freeze({ op: 'remote-move', request: request(), ...checkMove(id, index) })

/** `promote(id)` from a client (R46). */
export const remotePromote = (id: unknown): RemoteEditRecord =>
  Object.freeze({ op: 'remote-promote', request: request(), id: checkId(id, 'promote()') })

/** `cancel(cause, options)` from a client (R58): checked like the local call's (R25, R2). */
export const remoteCancel = (cause: unknown, options: unknown): RemoteEditRecord => {
  const args = parseCancelArgs(cause, options)
  return Object.freeze({
    op: 'remote-cancel',
    request: request(),
    cause: args.cause,
    keepInbox: args.options.keepInbox === true,
  })
}

/**
 * `approve(callId, options)` or `deny(callId, options)` from a client (R62, R65): checked like the
 * local call's; the source is `{kind: 'user'}` unless the options give one.
 */
export const remoteDecide = (
  decision: 'approved' | 'denied',
  callId: unknown,
  options: unknown,
): RemoteEditRecord => {
  const call = decision === 'approved' ? 'approve()' : 'deny()'
  const checked = parseDecision(call, callId, options)
  // Stored later than the call returns: a copy, so what the caller changes afterwards is not stored.
  const source = jsonSnapshot(checked.source, ['options', 'source'])
  if (!source.ok) throw new InvalidInputError(call, source.issues)
  return Object.freeze({
    op: 'remote-decide',
    request: request(),
    callId: checked.callId,
    decision,
    ...(checked.reason === undefined ? {} : { reason: checked.reason }),
    source: source.value as MessageSource,
  })
}

/** `cancelToolCall(callId, {reason})` from a client (R71): checked like the local call's. */
export const remoteCancelToolCall = (
  callId: unknown,
  options: unknown,
): Extract<RemoteEditRecord, { op: 'remote-cancel-call' }> => {
  const { reason } = parseCancelToolCall(callId, options)
  return Object.freeze({
    op: 'remote-cancel-call',
    request: request(),
    callId: callId as string,
    ...(reason === undefined ? {} : { reason }),
  })
}

/** `rollback(turns)` from a client (R77): the count checked as the local call checks it. */
export const remoteRollback = (turns: unknown): Extract<RemoteEditRecord, { op: 'remote-rollback' }> =>
  Object.freeze({ op: 'remote-rollback', request: request(), turns: checkRollbackTurns(turns) })

/**
 * The local call's check of a rollback's count against the turns there are (`timeline`, as
 * `session.messages()` holds them): throws its `InvalidInputError` when there are fewer.
 */
export const checkRollbackCount = (turns: number, timeline: readonly number[]): void => {
  rollbackTarget(turns, timeline, true)
}

/** The edit as the owner's agent applies it (`extensionsOf(agent).applyRemoteEdit`). */
export const editOf = (record: RemoteEditRecord): RemoteEdit => {
  switch (record.op) {
    case 'remote-remove':
      return { kind: 'remove', id: record.id }
    case 'remote-replace':
      return {
        kind: 'replace',
        id: record.message.id,
        input: { content: record.message.content, source: record.message.source },
      }
    case 'remote-move':
      return { kind: 'move', id: record.id, index: record.index }
    case 'remote-promote':
      return { kind: 'promote', id: record.id }
    case 'remote-cancel':
      return { kind: 'cancel', cause: record.cause, options: { keepInbox: record.keepInbox } }
    case 'remote-decide': {
      const { request, callId, decision, reason, source } = record
      return {
        kind: 'decide',
        request,
        callId,
        decision,
        ...(reason === undefined ? {} : { reason }),
        source,
      }
    }
    case 'remote-cancel-call': {
      const { request, callId, reason } = record
      return { kind: 'cancel-call', request, callId, ...(reason === undefined ? {} : { reason }) }
    }
    case 'remote-rollback':
      return { kind: 'rollback', request: record.request, turns: record.turns }
  }
}
