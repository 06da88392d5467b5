/**
 * fast-check arbitraries for a history schedule: a reliability schedule (arbitrary.ts) with
 * `compact()`, `rollback()` and cancels mixed into its script, a summariser that takes virtual
 * time and sometimes fails, subscribers of the compaction events, and sometimes an agent that
 * compacts by itself (R74–R77).
 */
import fc from 'fast-check'
import { planArb, sendArb } from '../arbitrary.js'
import {
  type AutoCompaction,
  type BudgetPlan,
  COMPACTION_EVENTS,
  type CompactOp,
  type Op,
  type Reaction,
  type Reply,
  type RollbackOp,
  Schedule,
  type Step,
  type SummaryPlan,
} from '../schedule.js'

const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary })
const delay = fc.integer({ min: 0, max: 4 })

const summaryArb: fc.Arbitrary<SummaryPlan> = fc.oneof(
  w(
    8,
    fc.record({
      kind: fc.constant('ok' as const),
      d: delay,
      as: fc.constantFrom('string' as const, 'blocks' as const, 'pieces' as const),
    }),
  ),
  w(
    3,
    fc.record({ kind: fc.constantFrom('error' as const, 'empty' as const, 'nonText' as const), d: delay }),
  ),
  w(1, fc.record({ kind: fc.constantFrom('throw' as const, 'hang' as const) })),
)

const compactArb: fc.Arbitrary<CompactOp> = fc.record(
  { kind: fc.constant('compact' as const), keepLastTurns: fc.integer({ min: 0, max: 3 }), own: fc.boolean() },
  { requiredKeys: ['kind', 'own'] },
)

/** Mostly a count the messages may hold, sometimes too many, rarely 0 (InvalidInputError). */
const rollbackArb: fc.Arbitrary<RollbackOp> = fc.record({
  kind: fc.constant('rollback' as const),
  turns: fc.oneof(
    w(6, fc.integer({ min: 1, max: 3 })),
    w(1, fc.integer({ min: 4, max: 8 })),
    w(1, fc.constant(0)),
  ),
})

const cancelArb = fc.record({
  kind: fc.constant('cancel' as const),
  cause: fc.constantFrom('user' as const, 'parent' as const),
  keepInbox: fc.boolean(),
})

/** R80: mostly a raise of a request or two, sometimes one not above the usage (refused). */
const raiseArb = fc.record({
  kind: fc.constant('raiseBudget' as const),
  by: fc.oneof(w(4, fc.integer({ min: 1, max: 3 })), w(1, fc.constant(0))),
})

/** Small limits, so that runs pause or stop on them, before a turn's first request too. */
const budgetArb: fc.Arbitrary<BudgetPlan> = fc.oneof(
  fc.record({ maxRequests: fc.integer({ min: 0, max: 5 }), onExceed: fc.constantFrom('pause', 'stop') }),
  fc.record({ maxTotalTokens: fc.integer({ min: 0, max: 120 }), onExceed: fc.constantFrom('pause', 'stop') }),
  fc.record({
    maxRequests: fc.integer({ min: 1, max: 5 }),
    maxTotalTokens: fc.integer({ min: 5, max: 120 }),
    onExceed: fc.constantFrom('pause', 'stop'),
  }),
) as fc.Arbitrary<BudgetPlan>

const historyOpArb: fc.Arbitrary<Op> = fc.oneof(
  w(6, compactArb),
  w(3, raiseArb),
  w(6, rollbackArb),
  w(3, cancelArb),
  w(4, fc.constant({ kind: 'followup' as const })),
  w(3, sendArb),
  w(1, fc.constant({ kind: 'whenIdle' as const })),
)
/**
 * Frames up to 45: past the base script (up to 24), where the agent is more often idle, so that
 * rollbacks are accepted and compactions and rollbacks follow each other.
 */
const historyStepArb: fc.Arbitrary<Step> = fc.record({ t: fc.integer({ min: 0, max: 45 }), op: historyOpArb })

/**
 * Subscribers of the compaction events (a cancel, a send or another compact() as one starts or
 * ends), and compact() from subscribers of turn and inbox events, reentrant.
 */
const compactionReactionArb: fc.Arbitrary<Reaction> = fc.record({
  on: fc.oneof(
    w(3, fc.constantFrom(...COMPACTION_EVENTS)),
    w(
      1,
      fc.constantFrom(
        'turn/end' as const,
        'settled' as const,
        'idle' as const,
        'running' as const,
        'enqueue' as const,
      ),
    ),
  ),
  nth: fc.integer({ min: 1, max: 2 }),
  op: fc.oneof(w(3, cancelArb), w(3, sendArb), w(2, compactArb)),
})

/** Plain answers after the base plan's replies: more turns that end well, so more to compact and undo. */
const answerArb: fc.Arbitrary<Reply> = fc.record({
  kind: fc.constant('stream' as const),
  words: fc.integer({ min: 1, max: 2 }),
  calls: fc.constant([]),
  finish: fc.constant('stop' as const),
  gaps: fc.array(delay, { minLength: 1, maxLength: 2 }),
  trailing: fc.constant(false),
})

const autoArb: fc.Arbitrary<AutoCompaction> = fc.record(
  { whenInputTokensExceed: fc.integer({ min: 5, max: 40 }), keepLastTurns: fc.integer({ min: 0, max: 3 }) },
  { requiredKeys: ['whenInputTokensExceed'] },
)

export const historyScheduleArb: fc.Arbitrary<Schedule> = fc
  .record({
    plan: planArb,
    steps: fc.array(historyStepArb, { minLength: 1, maxLength: 10 }),
    reactions: fc.array(compactionReactionArb, { maxLength: 3 }),
    summaries: fc.array(summaryArb, { minLength: 1, maxLength: 4 }),
    autoCompaction: fc.option(autoArb, { nil: null, freq: 2 }),
    budget: fc.option(budgetArb, { nil: null, freq: 2 }),
    answers: fc.array(answerArb, { maxLength: 6 }),
  })
  .map(
    ({ plan, steps, reactions, summaries, autoCompaction, budget, answers }) =>
      new Schedule({
        ...plan,
        replies: [...plan.replies, ...answers],
        steps: [...plan.steps, ...steps],
        reactions: [...plan.reactions, ...reactions],
        summaries,
        autoCompaction,
        budget,
      }),
  )
