/**
 * Shrunk history schedules the property found, each replayed as its own test
 * (test/reliability/history.test.ts), so a fixed bug stays fixed whatever the seed.
 */
import type { Regression } from '../regressions.js'
import { Schedule } from '../schedule.js'

const answer = (words: number) =>
  ({ kind: 'stream', words, calls: [], finish: 'stop', gaps: [0], trailing: false }) as const

export const HISTORY_REGRESSIONS: readonly Regression[] = [
  // R75: a remove of staged context while a compaction ran appended the other staged context at
  // once (as it does while nothing runs), so a user/message landed inside the compaction phase.
  {
    name: 'R75: a remove while a compaction runs appends nothing before the summary',
    schedule: new Schedule({
      steps: [
        { t: 4, op: { kind: 'followup' } },
        { t: 9, op: { kind: 'inject' } },
        { t: 9, op: { kind: 'inject' } },
        { t: 9, op: { kind: 'remove', pick: 0 } },
      ],
      replies: [answer(2), answer(0)],
      admissions: null,
      stepHooks: [],
      turnStopping: [],
      requestErrors: [],
      reactions: [],
      thrown: [],
      maxQueued: null,
      summaries: [{ kind: 'ok', d: 3, as: 'string' }],
      autoCompaction: { whenInputTokensExceed: 5, keepLastTurns: 0 },
    }),
  },
]
