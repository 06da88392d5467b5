/**
 * V9 and the pause's durability: the model-based property of test/reliability/approvals/ over
 * random schedules in virtual time (R61–R66, R30, R42, V9). APPROVAL_RUNS sets the count; `npm run
 * soak` runs it 10,000 times, after the regressions.
 */
import fc from 'fast-check'
import { describe, it } from 'vitest'
import { approvalParameters, approvalProperty, checkApprovalSchedule } from './approvals/property.js'
import { APPROVAL_REGRESSIONS } from './approvals/regressions.js'

const runs = Number(process.env.APPROVAL_RUNS ?? 200)

describe('approvals', () => {
  it.each(APPROVAL_REGRESSIONS)('regression: $name', async ({ schedule }) => {
    await checkApprovalSchedule(schedule)
  })

  it(`V9/R61–R66/R30/R42: ${runs} random schedules with pauses, decisions and restarts keep every invariant`, async () => {
    await fc.assert(approvalProperty(), approvalParameters(runs))
  }, 120_000)
})
