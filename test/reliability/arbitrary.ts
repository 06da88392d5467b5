/** fast-check arbitraries for a reliability `Schedule` (see schedule.ts). */
import fc from 'fast-check'
import {
  type Admission,
  type CancelCallOp,
  type ControlOp,
  type HookPlan,
  type Op,
  type Plan,
  REACTION_EVENTS,
  type Reaction,
  type ReactionOn,
  type ReactionOp,
  type Reply,
  type RequestErrorPlan,
  Schedule,
  type SendOp,
  type Step,
  type Thrown,
  type ToolCallPlan,
} from './schedule.js'

const delay = fc.integer({ min: 0, max: 4 })
const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary })

/** Sends, plain or with a busy policy (R47) or a turn guard (R49). */
export const sendArb: fc.Arbitrary<SendOp> = fc.oneof(
  w(10, fc.constant({ kind: 'followup' as const })),
  w(8, fc.constant({ kind: 'steer' as const })),
  w(6, fc.constant({ kind: 'inject' as const })),
  w(3, fc.constant({ kind: 'parked' as const })),
  w(
    3,
    fc.record({
      kind: fc.constantFrom('followup' as const, 'steer' as const),
      ifBusy: fc.constantFrom('reject' as const, 'interrupt' as const),
    }),
  ),
  w(
    1,
    fc.record({
      kind: fc.constantFrom('parked' as const, 'inject' as const),
      ifBusy: fc.constant('reject' as const),
    }),
  ),
  w(
    4,
    fc.record({
      kind: fc.constant('steer' as const),
      turn: fc.constantFrom('current' as const, 'past' as const, 'future' as const),
    }),
  ),
  w(
    5,
    fc.record({
      kind: fc.constant('steer' as const),
      interrupt: fc.constantFrom('steer' as const, 'send' as const),
    }),
  ),
)

/** R71: mostly an open call, sometimes any call so far (often settled), rarely an unknown id. */
const cancelCallArb: fc.Arbitrary<CancelCallOp> = fc.record({
  kind: fc.constant('cancelCall' as const),
  among: fc.oneof(
    w(4, fc.constant('open' as const)),
    w(2, fc.constant('any' as const)),
    w(1, fc.constant('unknown' as const)),
  ),
  pick: fc.oneof(w(3, fc.nat(2)), w(1, fc.nat(6))),
  reason: fc.boolean(),
})

/** Inbox control on an earlier id (R43–R46); `pick` counts back from the latest id. */
const pickArb = fc.oneof(w(3, fc.nat(1)), w(1, fc.nat(4)))
const controlArb: fc.Arbitrary<ControlOp> = fc.oneof(
  w(3, fc.record({ kind: fc.constantFrom('remove' as const, 'promote' as const), pick: pickArb })),
  w(
    2,
    fc.record({
      kind: fc.constant('replace' as const),
      pick: pickArb,
      bad: fc.oneof(w(5, fc.constant(false)), w(1, fc.constant(true))),
    }),
  ),
  w(2, fc.record({ kind: fc.constant('move' as const), pick: pickArb, index: fc.nat(3) })),
)

const opArb: fc.Arbitrary<Op> = fc.oneof(
  w(30, sendArb),
  w(9, controlArb),
  w(5, cancelCallArb),
  w(
    6,
    fc.record({
      kind: fc.constant('cancel' as const),
      cause: fc.constantFrom('user' as const, 'parent' as const),
      keepInbox: fc.boolean(),
    }),
  ),
  w(2, fc.constant({ kind: 'retry' as const })),
  w(2, fc.constant({ kind: 'whenIdle' as const })),
  w(1, fc.constant({ kind: 'dispose' as const })),
)

/** Some steps share a frame, so that bursts of calls happen in one synchronous stretch (R6). */
const frameArb = fc.oneof(w(3, fc.integer({ min: 0, max: 24 })), w(1, fc.constantFrom(3, 9)))
const stepArb: fc.Arbitrary<Step> = fc.record({ t: frameArb, op: opArb })

const toolCallArb: fc.Arbitrary<ToolCallPlan> = fc.record({
  tool: fc.oneof(
    w(4, fc.constantFrom('ok' as const, 'pok' as const)),
    w(2, fc.constant('fail' as const)),
    w(2, fc.constantFrom('hang' as const, 'hangValue' as const, 'hangErr' as const, 'hangSend' as const)),
    w(2, fc.constantFrom('ctx' as const, 'conclude' as const)),
    w(1, fc.constantFrom('nope' as const, 'badArgs' as const, 'weird' as const)),
  ),
  d: delay,
})

const replyArb: fc.Arbitrary<Reply> = fc.oneof(
  w(
    8,
    fc.record({
      kind: fc.constant('stream' as const),
      words: fc.integer({ min: 0, max: 3 }),
      calls: fc.array(toolCallArb, { maxLength: 3 }),
      finish: fc.constantFrom('stop' as const, 'tool-calls' as const, 'max-tokens' as const, 'none' as const),
      gaps: fc.array(delay, { minLength: 1, maxLength: 3 }),
      trailing: fc.boolean(),
    }),
  ),
  w(1, fc.record({ kind: fc.constant('fail' as const), after: fc.integer({ min: 0, max: 2 }), gap: delay })),
  w(
    1,
    fc.record({
      kind: fc.constant('malformed' as const),
      gap: delay,
      event: fc.constantFrom('bogus' as const, 'revoked' as const, 'getter' as const),
    }),
  ),
  w(
    1,
    fc.record({
      kind: fc.constant('hang' as const),
      onAbort: fc.constantFrom('error' as const, 'never' as const),
    }),
  ),
)

const admissionArb: fc.Arbitrary<Admission> = fc.oneof(
  w(
    12,
    fc.record({
      kind: fc.constant('allow' as const),
      d: delay,
      rewrite: fc.boolean(),
      contexts: fc.integer({ min: 0, max: 2 }),
    }),
  ),
  w(2, fc.record({ kind: fc.constantFrom('block' as const, 'error' as const), d: delay })),
  w(1, fc.record({ kind: fc.constantFrom('throw' as const, 'invalid' as const) })),
  w(
    1,
    fc.record({
      kind: fc.constant('hang' as const),
      onAbort: fc.constantFrom('never' as const, 'error' as const, 'allow' as const),
    }),
  ),
)

const hookArb: fc.Arbitrary<HookPlan> = fc.oneof(
  w(8, fc.record({ kind: fc.constant('ok' as const), d: delay })),
  w(1, fc.record({ kind: fc.constantFrom('throw' as const, 'hang' as const) })),
)

const thrownArb: fc.Arbitrary<Thrown> = fc.constantFrom(
  'error',
  'nullProto',
  'badMessage',
  'revoked',
  'symbol',
  'null',
  'numberMessage',
  'bigintMessage',
)

const requestErrorArb: fc.Arbitrary<RequestErrorPlan> = fc.record({ retry: fc.boolean(), d: delay })

const reactionOpArb: fc.Arbitrary<ReactionOp> = fc.oneof(
  w(8, sendArb),
  w(3, controlArb),
  w(2, cancelCallArb),
  w(
    2,
    fc.record({
      kind: fc.constant('cancel' as const),
      cause: fc.constant('user' as const),
      keepInbox: fc.boolean(),
    }),
  ),
  w(1, fc.constantFrom({ kind: 'retry' as const }, { kind: 'dispose' as const })),
)

/** Inbox and claim events are where inbox control races matter most: twice as likely. */
const INBOX_EVENTS: readonly ReactionOn[] = ['running', 'enqueue', 'dequeue', 'discard', 'cancel-requested']
/** A dispatched call and a streamed delta: where a cancel and a cut race the tools and the model. */
const CUT_EVENTS: readonly ReactionOn[] = ['tool-start', 'delta']
const nthArb = fc.integer({ min: 1, max: 3 })
const reactionArb: fc.Arbitrary<Reaction> = fc.oneof(
  w(
    6,
    fc.record({
      on: fc.oneof(
        w(2, fc.constantFrom(...REACTION_EVENTS)),
        w(2, fc.constantFrom(...INBOX_EVENTS)),
        w(1, fc.constantFrom(...CUT_EVENTS)),
      ),
      nth: nthArb,
      op: reactionOpArb,
    }),
  ),
  // R71: a cancel while the batch runs; R68: a cut while the answer streams. Rare by chance alone.
  w(1, fc.record({ on: fc.constant('tool-start' as const), nth: nthArb, op: cancelCallArb })),
  w(
    1,
    fc.record({
      on: fc.constant('delta' as const),
      nth: nthArb,
      op: fc.record({
        kind: fc.constant('steer' as const),
        interrupt: fc.constantFrom('steer' as const, 'send' as const),
      }),
    }),
  ),
)

export const planArb: fc.Arbitrary<Plan> = fc.record({
  steps: fc.array(stepArb, { minLength: 1, maxLength: 12 }),
  replies: fc.array(replyArb, { minLength: 1, maxLength: 8 }),
  admissions: fc.option(fc.array(admissionArb, { minLength: 1, maxLength: 4 }), { nil: null, freq: 2 }),
  stepHooks: fc.array(hookArb, { maxLength: 3 }),
  turnStopping: fc.array(hookArb, { maxLength: 2 }),
  requestErrors: fc.array(requestErrorArb, { maxLength: 3 }),
  reactions: fc.array(reactionArb, { maxLength: 5 }),
  thrown: fc.array(thrownArb, { maxLength: 3 }),
  maxQueued: fc.oneof(w(2, fc.constant(null)), w(1, fc.integer({ min: 1, max: 3 }))),
})

/** A random schedule; shrinks through the plan and prints as a script. */
export const scheduleArb: fc.Arbitrary<Schedule> = planArb.map((plan) => new Schedule(plan))
