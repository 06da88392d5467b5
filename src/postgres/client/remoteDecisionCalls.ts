import { defer, distinctUntilChanged, filter, lastValueFrom, map, type Observable, tap } from 'rxjs'
import type { DecisionOptions, PendingApproval } from '../../contracts/approvals.js'
import { remoteDecide } from '../rows/remoteEditRecord.js'
import { decisionApplied, type Reads, type StoredDecision } from './decisionApplied.js'
import { followTranscriptReads } from './followTranscript.js'
import { PendingApprovals } from './pendingApprovals.js'
import type { Chain } from './remoteEditCalls.js'
import { writeRemoteEdit } from './writeRemoteRequest.js'

/**
 * Approvals of a session seen from another process (R65). `approve` and `deny` check their
 * arguments like the local calls (a bad `callId` or options throw `InvalidInputError` at once, and
 * nothing is stored), store the decision as a row of the session's journal, in order with this
 * client's sends and edits, and resolve once the owner applied it; when the call was not pending
 * as the owner reached the row, they reject with `ApprovalNotPendingError`, as the local calls
 * throw it. A session that nobody drives is taken by a worker because a decision waits; with no
 * worker either, the Promise waits for the next owner, as `outcome()` waits for a message.
 */
export type RemoteApprovals = {
  /** Lets a pending call run (R62); the source is `{kind: 'user'}` unless the options give one. */
  approve(callId: string, options?: DecisionOptions): Promise<void>
  /** Refuses a pending call: it gets a `DENIED` result with the reason (R62). */
  deny(callId: string, options?: DecisionOptions): Promise<void>
  /**
   * The pending approvals, as the committed transcript says: emitted once it is read up to what
   * is stored, then after each change (like `agent.approvals$`, each list frozen, in the order
   * the model made the calls).
   */
  readonly approvals$: Observable<readonly PendingApproval[]>
}

export const remoteDecisionCalls = (reads: Reads, chain: Chain): RemoteApprovals => {
  const { pool, sessionId, ms } = reads
  const decide = (decision: 'approved' | 'denied', callId: unknown, options: unknown): Promise<void> => {
    const record = remoteDecide(decision, callId, options) as StoredDecision['record']
    // A retry stores the same request, which the journal keeps once: safe after an unclear commit.
    const write = () => writeRemoteEdit(pool, sessionId, record, ms)
    const what = `store the decision on ${record.callId}`
    // Stored in order with this client's requests, but waited for outside the chain: a decision
    // that waits for an owner must not hold back this client's later sends.
    return chain(sessionId, what, () => write().catch(write)).then((seq) =>
      lastValueFrom(decisionApplied(reads, { seq, record }), { defaultValue: undefined }),
    )
  }
  return {
    approve: (callId, options) => decide('approved', callId, options),
    deny: (callId, options) => decide('denied', callId, options),
    approvals$: defer(() => {
      const pending = new PendingApprovals()
      return followTranscriptReads(pool, reads.hub, sessionId, ms, reads.pollMs).pipe(
        tap((read) => {
          for (const event of read.events) pending.add(event)
        }),
        filter((read) => !read.more),
        map(() => pending.list),
        distinctUntilChanged(sameCalls),
      )
    }),
  }
}

const sameCalls = (a: readonly PendingApproval[], b: readonly PendingApproval[]): boolean =>
  a.length === b.length && a.every((x, i) => x.requestedSeq === b[i]?.requestedSeq)
