// In owner/ though a client calls it: when nobody drives the session, the client is its owner for a moment.

import { throwError } from 'rxjs'
import { createAgent } from '../../agent/createAgent.js'
import type { ModelAdapter } from '../../contracts/model.js'
import { extensionsOf } from '../../runtime/extensions.js'
import { SessionLockedError } from '../../session/storeErrors.js'
import type { PostgresPool } from '../db/pgTypes.js'
import { withConnection } from '../db/timeouts.js'
import { applyRemoteRequest } from './applyRemoteRequests.js'
import { openPostgresSession } from './openPostgresSession.js'

/**
 * Never called: the agent below only applies what waits and is released in the same synchronous
 * stack. Should a turn ever start, it fails at once rather than reach a model.
 */
const noModel: ModelAdapter = () =>
  throwError(() => new Error('a cancel with no owner never runs a turn (this is a bug in steerable)'))

/**
 * Requests that need the session's real owner: a decision (an approved call must run), a tool
 * call's cancel (a cancelled call that waited for approval lets the turn go on to the model), and
 * a rollback (it waits for the owner's idle moment, after the prompts stored before it ran).
 */
const LEFT_FOR_A_WORKER: ReadonlySet<string> = new Set([
  'remote-decide',
  'remote-cancel-call',
  'remote-rollback',
])

/**
 * R58 with no owner: after the client stored its cancel (journal row `cancelSeq`), it tries the
 * session's lease. Held: the owner applies the cancel (it reads the row like any request), and
 * this returns `false`. Free: this process is the owner for a moment. It creates an agent on the
 * stored session (R51 rebuilds the inbox), applies the requests that wait up to and including the
 * cancel, in journal order, through the agent's own operations (so R25 runs on the stored inbox:
 * queued and steering discarded, staged context appended, V1), and releases the agent and the
 * lease. All of it runs in one synchronous stack after `createAgent` returns, before anything
 * scheduled can run: a restored waking item's deferred wake (R6) finds the agent disposing and
 * starts no turn. Requests after the cancel stay for the next owner. Returns `'applied'`.
 *
 * A decision on an approval (R65), a tool call's cancel (R71) or a rollback (R77) before the cancel
 * is the exception: an approved call must run, and this agent has no tools; a cancelled call that
 * waited lets the turn go on to a model it does not have; a rollback counts the turns at the
 * owner's next idle moment, after the prompts stored before it ran. Then nothing is applied here (`'left'`): the request's
 * row is waiting work, so a worker takes the session and applies it, then the cancel.
 */
export const cancelWithoutOwner = async (
  pool: PostgresPool,
  sessionId: string,
  cancelSeq: number,
  ms: number,
): Promise<'locked' | 'applied' | 'left'> => {
  const store = await openPostgresSession(pool, sessionId, { timeoutMs: ms })
  try {
    await store.takeLease()
  } catch (error) {
    if (error instanceof SessionLockedError) return 'locked'
    throw error
  }
  if (store.remoteRequests.some((r) => r.seq < cancelSeq && LEFT_FOR_A_WORKER.has(r.record.op))) {
    await store.release()
    return 'left'
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
  return 'applied'
}

/** The journal number of the last remote edit an owner applied to `sessionId` (R58). */
const appliedThrough = async (pool: PostgresPool, sessionId: string, ms: number): Promise<number> => {
  const { rows } = await withConnection(pool, ms, (query) =>
    query('SELECT remote_applied FROM steerable_sessions WHERE id = $1', [sessionId]),
  )
  return Number((rows[0] as { remote_applied?: unknown } | undefined)?.remote_applied ?? 0)
}

/**
 * R58 from a client, once its cancel is stored as journal row `cancelSeq`: resolves when the
 * cancel is applied, by the session's owner or by this client (`cancelWithoutOwner`). A lease
 * that is held does not prove an owner that will apply it: the holder may be another client's
 * passing no-owner cancel, or an owner that is releasing and reads no more. So the client waits
 * for the owner to record the cancel as applied and tries the lease again meanwhile (backing off
 * up to half a second). After `ms` it resolves anyway: the row is durable, and an owner that
 * holds the lease and does not apply remote requests will apply it when it reads them. A cancel
 * left for a worker (a decision waits before it) is only waited for.
 */
export const cancelUntilApplied = async (
  pool: PostgresPool,
  sessionId: string,
  cancelSeq: number,
  ms: number,
): Promise<void> => {
  const deadline = Date.now() + ms
  let left = false
  for (let wait = 25; ; wait = Math.min(wait * 2, 500)) {
    if ((await appliedThrough(pool, sessionId, ms)) >= cancelSeq) return
    if (!left) {
      const done = await cancelWithoutOwner(pool, sessionId, cancelSeq, ms)
      if (done === 'applied') return
      left = done === 'left'
    }
    if (Date.now() + wait > deadline) return
    await new Promise((resolve) => setTimeout(resolve, wait))
  }
}
