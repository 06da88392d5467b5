/** The history property (R74–R77): the reliability property over history schedules. */
import fc from 'fast-check'
import { checkSchedule } from '../model.js'
import type { Schedule } from '../schedule.js'
import { historyScheduleArb } from './arbitrary.js'

export const historyProperty = (): fc.IAsyncPropertyWithHooks<[Schedule]> =>
  fc.asyncProperty(historyScheduleArb, checkSchedule)

export const historyParameters = (numRuns: number, seed?: number): fc.Parameters<[Schedule]> => ({
  numRuns,
  ...(seed !== undefined ? { seed } : {}),
})
