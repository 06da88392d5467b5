import { lastValueFrom } from 'rxjs'
import type { CancelToolCallOptions } from '../../contracts/agent.js'
import { remoteCancelToolCall } from '../rows/remoteEditRecord.js'
import { type Reads, requestApplied } from './decisionApplied.js'
import type { Chain } from './remoteEditCalls.js'
import { writeRemoteEdit } from './writeRemoteRequest.js'

/** The running tool calls of a session seen from another process (R71). */
export type RemoteToolCalls = {
  /**
   * Cancels one running tool call, or one that waits for approval, as `agent.cancelToolCall`
   * does (R71): that call alone gets a `CANCELLED` result with the reason, its siblings and the
   * turn go on. Checks its arguments like the local call (a bad `callId` or options throw
   * `InvalidInputError` at once, and nothing is stored), stores the request as a row of the
   * session's journal, in order with this client's sends and edits, and resolves once the owner
   * applied it: `true` when it cancelled the call, `false` when the call was not running as the
   * owner reached the row (it had settled, or the id is wrong), as the local call returns. A
   * session that nobody drives is taken by a worker because the request waits; with no worker
   * either, the Promise waits for the next owner, as a decision does. `agent/tool/start` in
   * `events$` names the running calls.
   */
  cancelToolCall(callId: string, options?: CancelToolCallOptions): Promise<boolean>
}

export const remoteToolCalls = (reads: Reads, chain: Chain): RemoteToolCalls => ({
  cancelToolCall: (callId, options) => {
    const { pool, sessionId, ms } = reads
    const record = remoteCancelToolCall(callId, options)
    // A retry stores the same request, which the journal keeps once: safe after an unclear commit.
    const write = () => writeRemoteEdit(pool, sessionId, record, ms)
    const what = `the cancel of tool call ${record.callId}`
    // Waited for outside the chain, as a decision is: it must not hold back later sends.
    return chain(sessionId, `store ${what}`, () => write().catch(write)).then((seq) =>
      lastValueFrom(requestApplied(reads, seq, record.request, what)),
    )
  },
})
