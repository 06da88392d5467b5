/**
 * History: the model-based property of test/reliability/model.ts over schedules that also compact
 * (by `compact()` and by themselves), roll back, and cancel during compactions, on virtual time
 * (R74–R77, with R30, R38 and every invariant of the suite). HISTORY_RUNS sets the count; `npm run
 * soak` runs it 10,000 times, after the regressions.
 */
import fc from 'fast-check'
import { describe, it } from 'vitest'
import { historyParameters, historyProperty } from './history/property.js'
import { HISTORY_REGRESSIONS } from './history/regressions.js'
import { checkSchedule } from './model.js'

const runs = Number(process.env.HISTORY_RUNS ?? 300)

describe('history', () => {
  it.each(HISTORY_REGRESSIONS)('regression: $name', async ({ schedule }) => {
    await checkSchedule(schedule)
  })

  it(`R74–R77/R30/R38: ${runs} random schedules with compactions, rollbacks and cancels keep every invariant`, async () => {
    await fc.assert(historyProperty(), historyParameters(runs))
  }, 120_000)
})
