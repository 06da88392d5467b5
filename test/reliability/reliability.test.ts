/**
 * Reliability: the model-based property of test/reliability/model.ts over random schedules in
 * virtual time (R7, R9, R12, R13, R24, R28, R30, R31, R41–R49, V1, V2, V8). `npm run soak` runs
 * it 100,000 times; RELIABILITY_RUNS overrides the count here.
 */
import { describe, it } from 'vitest'
import { assertReliability, checkSchedule } from './model.js'
import { REGRESSIONS } from './regressions.js'

const runs = Number(process.env.RELIABILITY_RUNS ?? 1000)

describe('reliability', () => {
  it.each(REGRESSIONS)('regression: $name', async ({ schedule }) => {
    await checkSchedule(schedule)
  })

  it(`R30/R31/R41–R49/V1/V8/R7/R12/R28: ${runs} random schedules keep every invariant`, async () => {
    await assertReliability(runs)
  }, 120_000)
})
