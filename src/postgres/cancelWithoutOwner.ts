import { throwError } from 'rxjs'
import { createAgent } from '../agent/createAgent.js'
import type { ModelAdapter } from '../contracts/model.js'
import { extensionsOf } from '../runtime/extensions.js'
import { SessionLockedError } from '../session/storeErrors.js'
import { applyRemoteRequest } from './applyRemoteSends.js'
import { openPostgresSession } from './openPostgresSession.js'
import type { PostgresPool } from './pgTypes.js'

/**
 * Never called: the agent below only applies what waits and is released in the same synchronous
 * stack. Should a turn ever start, it fails at once rather than reach a model.
 */
const noModel: ModelAdapter = () =>
  throwError(() => new Error('a cancel with no owner never runs a turn (this is a bug in steerable)'))

/**
 * R58 with no owner: after the client stored its cancel (journal row `cancelSeq`), it tries the
 * session's lease. Held: the owner applies the cancel (it reads the row like any request), and
 * this returns `false`. Free: this process is the owner for a moment. It creates an agent on the
 * stored session (R51 rebuilds the inbox), applies the requests that wait up to and including the
 * cancel, in journal order, through the agent's own operations (so R25 runs on the stored inbox:
 * queued and steering discarded, staged context appended, V1), and releases the agent and the
 * lease. All of it runs in one synchronous stack after `createAgent` returns, before anything
 * scheduled can run: a restored waking item's deferred wake (R6) finds the agent disposing and
 * starts no turn. Requests after the cancel stay for the next owner. Returns `true`.
 */
export const cancelWithoutOwner = async (
  pool: PostgresPool,
  sessionId: string,
  cancelSeq: number,
  ms: number,
): Promise<boolean> => {
  const store = await openPostgresSession(pool, sessionId, { timeoutMs: ms })
  try {
    await store.takeLease()
  } catch (error) {
    if (error instanceof SessionLockedError) return false
    throw error
  }
  let failed: unknown
  const fail = (error: unknown) => {
    failed ??= error
  }
  try {
    const agent = createAgent({ model: noModel, store })
    for (const request of store.remoteRequests)
      if (request.seq <= cancelSeq) applyRemoteRequest(agent, store, request, { failed: fail })
    // Called in the same stack as createAgent: nothing scheduled has run yet.
    await extensionsOf(agent).release().catch(fail)
  } finally {
    await store.release()
  }
  if (failed !== undefined) throw failed
  return true
}
