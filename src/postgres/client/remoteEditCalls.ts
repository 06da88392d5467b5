import type { AgentCancelCause, AgentMessageId, CancelOptions, SendInput } from '../../contracts/messages.js'
import type { PostgresPool } from '../db/pgTypes.js'
import { cancelUntilApplied } from '../owner/cancelWithoutOwner.js'
import {
  type RemoteEditRecord,
  remoteCancel,
  remoteMove,
  remotePromote,
  remoteRemove,
  remoteReplace,
} from '../rows/remoteEditRecord.js'
import { writeRemoteEdit } from './writeRemoteRequest.js'

/**
 * The inbox controls of a session seen from another process (R55, R58). Each validates its
 * arguments like the local call (bad ones throw `InvalidInputError` at once, and nothing is
 * stored) and resolves once the request is a row in the session's inbox journal, in order with
 * this client's sends to the session. The owner applies it when it reaches it, with the
 * semantics of that moment: an item no longer waiting is left alone (R43–R46).
 */
export type RemoteInboxControls = {
  /** Withdraws a waiting item (R43). */
  remove(id: AgentMessageId): Promise<void>
  /** Changes a waiting item's content in place (R44); `input` is checked like a send's. */
  replace(id: AgentMessageId, input: SendInput): Promise<void>
  /** Moves a queued item to `index` in the queue (R45). */
  move(id: AgentMessageId, index: number): Promise<void>
  /** Makes a queued item steering of the running turn, or the next turn (R46). */
  promote(id: AgentMessageId): Promise<void>
  /**
   * Cancels as `agent.cancel` does (R25, R26) where the session is driven (R58); the cause is
   * `{kind: 'user'}` unless given. It resolves once the cancel is applied: by the owner, or,
   * with no owner, by this client, which takes the lease, applies it to the stored inbox and
   * releases it. An owner that does not apply it within `timeoutMs` (one that does not apply
   * remote requests) leaves it stored, and the Promise resolves then.
   */
  cancel(cause?: AgentCancelCause, options?: CancelOptions): Promise<void>
}

/** How a client stores a request: after its earlier ones to the same session, with its errors. */
export type Chain = <T>(sessionId: string, what: string, task: () => Promise<T>) => Promise<T>

export const remoteEditCalls = (
  pool: PostgresPool,
  sessionId: string,
  chain: Chain,
  ms: number,
): RemoteInboxControls => {
  // A retry stores the same request, which the journal keeps once: safe after an unclear commit.
  const write = (record: RemoteEditRecord) => {
    const once = () => writeRemoteEdit(pool, sessionId, record, ms)
    return once().catch(once)
  }
  const edit = (record: RemoteEditRecord, what: string): Promise<void> =>
    chain(sessionId, what, async () => void (await write(record)))
  return {
    remove: (id) => edit(remoteRemove(id), `store the remove of ${String(id)}`),
    replace: (id, input) => edit(remoteReplace(id, input), `store the replace of ${String(id)}`),
    move: (id, index) => edit(remoteMove(id, index), `store the move of ${String(id)}`),
    promote: (id) => edit(remotePromote(id), `store the promote of ${String(id)}`),
    cancel: (cause, options) => {
      const record = remoteCancel(cause === undefined ? { kind: 'user' } : cause, options)
      return chain(sessionId, 'cancel', async () => {
        const seq = await write(record)
        await cancelUntilApplied(pool, sessionId, seq, ms)
      })
    },
  }
}
