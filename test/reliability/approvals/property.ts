/**
 * The approvals property (V9): a random schedule of sends (with `onApproval`), decisions,
 * promotes, cancels and restarts over tools that need approval runs on virtual time against one
 * session, and every run must keep the invariants of checks.ts. `npm run soak` runs it too.
 */
import fc from 'fast-check'
import { approvalScheduleArb } from './arbitrary.js'
import { checkRun } from './checks.js'
import type { ApprovalSchedule } from './plan.js'
import { runApprovalSchedule } from './run.js'

/** Runs one schedule; throws with the broken invariants and the labelled timeline. */
export const checkApprovalSchedule = async (schedule: ApprovalSchedule): Promise<void> => {
  const result = await runApprovalSchedule(schedule)
  const problems = checkRun(result)
  if (problems.length === 0) return
  const timeline = result.run.timeline.join('\n')
  throw new Error(
    `${problems.length} broken invariant(s):\n- ${problems.join('\n- ')}\ntimeline:\n${timeline}`,
  )
}

export const approvalProperty = (): fc.IAsyncPropertyWithHooks<[ApprovalSchedule]> =>
  fc.asyncProperty(approvalScheduleArb, checkApprovalSchedule)

export const approvalParameters = (numRuns: number, seed?: number): fc.Parameters<[ApprovalSchedule]> => ({
  numRuns,
  ...(seed !== undefined ? { seed } : {}),
})
