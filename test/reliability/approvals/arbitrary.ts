/** fast-check arbitraries for an `ApprovalSchedule` (see plan.ts). */
import fc from 'fast-check'
import {
  ApprovalSchedule,
  type CallPlan,
  type DecideOp,
  type Op,
  type Plan,
  REACTION_EVENTS,
  type Reaction,
  type ReactionOp,
  type Reply,
  type SendOp,
  type Step,
} from './plan.js'

const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary })
const delay = fc.integer({ min: 0, max: 4 })

const callArb: fc.Arbitrary<CallPlan> = fc.record(
  {
    tool: fc.oneof(
      w(5, fc.constant('gate' as const)),
      w(2, fc.constant('maybe' as const)),
      w(3, fc.constant('plain' as const)),
    ),
    d: delay,
    n: fc.nat(5),
    // Ids the model chose badly: one repeated within the step, or none at all (V9).
    id: fc.oneof(w(2, fc.constant('repeat' as const)), w(1, fc.constant('empty' as const))),
  },
  { requiredKeys: ['tool', 'd', 'n'] },
)
const replyArb: fc.Arbitrary<Reply> = fc.record({
  gap: delay,
  calls: fc.oneof(w(1, fc.constant([])), w(5, fc.array(callArb, { minLength: 1, maxLength: 3 }))),
})

const sendArb: fc.Arbitrary<SendOp> = fc.record(
  {
    kind: fc.constantFrom('followup' as const, 'steer' as const, 'inject' as const),
    onApproval: fc.constantFrom('hold' as const, 'deny' as const),
  },
  { requiredKeys: ['kind'] },
)
const decideArb: fc.Arbitrary<DecideOp> = fc.record(
  {
    kind: fc.constantFrom('approve' as const, 'deny' as const),
    pick: fc.nat(2),
    stale: fc.oneof(w(4, fc.constant(false)), w(1, fc.constant(true))),
    reason: fc.boolean(),
  },
  { requiredKeys: ['kind', 'pick'] },
)
const cancelArb = fc.record({ kind: fc.constant('cancel' as const), keepInbox: fc.boolean() })

/** Decisions weigh most: they are what the pause waits for. */
const opArb: fc.Arbitrary<Op> = fc.oneof(
  w(8, sendArb),
  w(10, decideArb),
  w(2, fc.record({ kind: fc.constant('promote' as const), pick: fc.nat(2) })),
  w(2, cancelArb),
  w(3, fc.record({ kind: fc.constant('restart' as const), crash: fc.boolean() })),
)
const stepArb: fc.Arbitrary<Step> = fc.record({
  t: fc.oneof(w(3, fc.integer({ min: 0, max: 30 })), w(1, fc.constantFrom(6, 12))),
  op: opArb,
})

const reactionOpArb: fc.Arbitrary<ReactionOp> = fc.oneof(w(3, sendArb), w(4, decideArb), w(1, cancelArb))
const reactionArb: fc.Arbitrary<Reaction> = fc.record({
  on: fc.constantFrom(...REACTION_EVENTS),
  nth: fc.integer({ min: 1, max: 2 }),
  op: reactionOpArb,
})

export const approvalPlanArb: fc.Arbitrary<Plan> = fc.record({
  replies: fc.array(replyArb, { minLength: 1, maxLength: 6 }),
  steps: fc.array(stepArb, { minLength: 1, maxLength: 14 }),
  reactions: fc.array(reactionArb, { maxLength: 3 }),
  timeoutMs: fc.oneof(w(3, fc.constant(null)), w(1, fc.integer({ min: 1, max: 12 }))),
  finally: fc.constantFrom('approve' as const, 'deny' as const, 'alternate' as const),
})

export const approvalScheduleArb: fc.Arbitrary<ApprovalSchedule> = approvalPlanArb.map(
  (plan) => new ApprovalSchedule(plan),
)
