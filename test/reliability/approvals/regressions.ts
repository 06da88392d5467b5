/**
 * Schedules the approvals property once failed on (or found worth keeping), each replayed as its
 * own test and first by the soak.
 */
import { ApprovalSchedule } from './plan.js'

export type ApprovalRegression = { readonly name: string; readonly schedule: ApprovalSchedule }

export const APPROVAL_REGRESSIONS: readonly ApprovalRegression[] = [
  // A subscriber of the request sends a followup, then approves; a subscriber of that followup's
  // enqueue sends a followup with onApproval 'deny', placed depth-first before the approval: the
  // denial is applied first and the approval, accepted already, changes nothing. Nothing runs.
  {
    name: "R62, R63: a 'deny' send placed depth-first overtakes an approval accepted before it; the call never runs",
    schedule: new ApprovalSchedule({
      replies: [{ gap: 0, calls: [{ tool: 'gate', d: 0, n: 0 }] }],
      steps: [{ t: 0, op: { kind: 'approve', pick: 0 } }],
      reactions: [
        { on: 'requested', nth: 1, op: { kind: 'followup' } },
        { on: 'requested', nth: 1, op: { kind: 'approve', pick: 0 } },
        { on: 'enqueue', nth: 2, op: { kind: 'followup', onApproval: 'deny' } },
      ],
      timeoutMs: null,
      finally: 'approve',
    }),
  },
  // Found by the property: a subscriber cancels, then approves, in one delivery. The cancel is
  // applied first, so the call is ABORTED with no decision and never runs. (That the approval
  // throws ApprovalNotPendingError is pinned in test/agent/approvalReentrancy.test.ts.)
  {
    name: 'R64, V9: cancel() then approve() from one subscriber: the call is ABORTED with no decision and never runs',
    schedule: new ApprovalSchedule({
      replies: [{ gap: 0, calls: [{ tool: 'maybe', d: 0, n: 1 }] }],
      steps: [{ t: 0, op: { kind: 'followup' } }],
      reactions: [
        { on: 'requested', nth: 1, op: { kind: 'cancel', keepInbox: false } },
        { on: 'requested', nth: 1, op: { kind: 'approve', pick: 0 } },
      ],
      timeoutMs: 1,
      finally: 'approve',
    }),
  },
  // Found by the property: a call approved right after a reopen, before the reopened turn's
  // scheduled resume, ran twice: the resume ran every approved call without a result.
  {
    name: 'R65, V9: approve() right after a reopen runs the call once, not again at the resume',
    schedule: new ApprovalSchedule({
      replies: [
        { gap: 0, calls: [{ tool: 'gate', d: 1, n: 1 }] },
        { gap: 0, calls: [{ tool: 'plain', d: 0, n: 2 }] },
      ],
      steps: [
        { t: 0, op: { kind: 'followup' } },
        { t: 6, op: { kind: 'restart', crash: false } },
        { t: 6, op: { kind: 'approve', pick: 0 } },
      ],
      reactions: [],
      timeoutMs: null,
      finally: 'approve',
    }),
  },
  // The model gave two calls of a step one id: decisions and the reopened pause were keyed by
  // it, so after approving the first and a reopen the second had no result and nobody was asked.
  {
    name: 'V9, R65: two calls with one id, the first approved, then a reopen: the second is asked and answered',
    schedule: new ApprovalSchedule({
      replies: [
        {
          gap: 0,
          calls: [
            { tool: 'gate', d: 0, n: 1 },
            { tool: 'gate', d: 0, n: 2, id: 'repeat' },
            { tool: 'gate', d: 0, n: 3, id: 'empty' },
          ],
        },
      ],
      steps: [
        { t: 0, op: { kind: 'followup' } },
        { t: 2, op: { kind: 'approve', pick: 0 } },
        { t: 4, op: { kind: 'restart', crash: false } },
        { t: 6, op: { kind: 'deny', pick: 1 } },
        { t: 8, op: { kind: 'restart', crash: true } },
      ],
      reactions: [],
      timeoutMs: null,
      finally: 'alternate',
    }),
  },
]
