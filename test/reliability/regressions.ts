/**
 * Shrunk schedules the property found, each replayed as its own test (and first by the soak), so
 * a fixed bug stays fixed whatever the seed, and an open one is named while the random runs go on.
 */
import { Schedule } from './schedule.js'

/** A regression: its name says the rule it pins, as it should hold. */
export type Regression = { readonly name: string; readonly schedule: Schedule }

export const REGRESSIONS: readonly Regression[] = [
  // settled (R24 / section 4): requestError calls retry(), then dispose() from a turn/end
  // subscriber drops the retry turn; turn 1 is the last of its chain but never settles.
  {
    name: 'R24: a failed turn whose retry dispose() dropped still settles',
    schedule: new Schedule({
      steps: [{ t: 0, op: { kind: 'followup' } }],
      replies: [],
      admissions: null,
      stepHooks: [],
      turnStopping: [],
      requestErrors: [{ retry: true, d: 0 }],
      reactions: [{ on: 'turn/end', nth: 1, op: { kind: 'dispose' } }],
      thrown: [],
      maxQueued: null,
    }),
  },
  // Decision (docs/decisions.md, ordering): r3i is called after r2i but, sent while r1s's enqueue is
  // delivered, is placed depth-first before it; every other invariant must still hold.
  {
    name: 'ordering decision: nested reentrant sends placed depth-first keep every invariant',
    schedule: new Schedule({
      steps: [{ t: 0, op: { kind: 'followup' } }],
      replies: [{ kind: 'stream', words: 1, calls: [], finish: 'stop', gaps: [0], trailing: false }],
      admissions: null,
      stepHooks: [],
      turnStopping: [],
      requestErrors: [],
      reactions: [
        { on: 'running', nth: 1, op: { kind: 'steer' } },
        { on: 'running', nth: 1, op: { kind: 'inject' } },
        { on: 'enqueue', nth: 2, op: { kind: 'inject' } },
      ],
      thrown: [],
      maxQueued: null,
    }),
  },
  // R29 (found by `npm run soak`): dispose() and inject() from the same enqueue subscriber. The
  // dispose ran its flush and close depth-first, before the inject already sent; the inject was
  // appended after close() and a followup from its user/message subscriber threw
  // AgentDisposedError before dispose() had resolved. Closing the store now waits for the drain to end.
  {
    name: 'R29: dispose() and inject() from one enqueue subscriber: the store closes after the drain',
    schedule: new Schedule({
      steps: [
        { t: 0, op: { kind: 'cancel', cause: 'user', keepInbox: false } },
        { t: 3, op: { kind: 'followup' } },
        { t: 3, op: { kind: 'followup' } },
      ],
      replies: [{ kind: 'malformed', gap: 0, event: 'bogus' }],
      admissions: null,
      stepHooks: [],
      turnStopping: [],
      requestErrors: [],
      reactions: [
        { on: 'enqueue', nth: 2, op: { kind: 'dispose' } },
        { on: 'user/message', nth: 1, op: { kind: 'followup' } },
        { on: 'enqueue', nth: 2, op: { kind: 'inject' } },
      ],
      thrown: [],
      maxQueued: null,
    }),
  },
  // R23, R21b: outside code throws values whose text cannot be taken naively (a tool throws
  // Object.create(null), a step hook a revoked Proxy, the model an Error whose message getter
  // throws). The agent stayed running for good, or events$ errored; now each is a tool error or
  // a turn failure and the later prompts run.
  {
    name: 'R23, R21b: hostile thrown values become tool errors or turn failures',
    schedule: new Schedule({
      steps: [
        { t: 0, op: { kind: 'followup' } },
        { t: 1, op: { kind: 'followup' } },
        { t: 2, op: { kind: 'followup' } },
        { t: 3, op: { kind: 'followup' } },
      ],
      replies: [
        {
          kind: 'stream',
          words: 1,
          calls: [{ tool: 'fail', d: 0 }],
          finish: 'tool-calls',
          gaps: [0],
          trailing: false,
        },
        {
          kind: 'stream',
          words: 1,
          calls: [{ tool: 'weird', d: 0 }],
          finish: 'tool-calls',
          gaps: [0],
          trailing: false,
        },
        { kind: 'fail', after: 1, gap: 1 },
        { kind: 'malformed', gap: 0, event: 'revoked' },
        { kind: 'stream', words: 1, calls: [], finish: 'stop', gaps: [0], trailing: false },
      ],
      admissions: null,
      stepHooks: [
        { kind: 'ok', d: 0 },
        { kind: 'ok', d: 0 },
        { kind: 'ok', d: 0 },
        { kind: 'ok', d: 0 },
        { kind: 'throw' },
      ],
      turnStopping: [],
      requestErrors: [],
      reactions: [],
      thrown: ['nullProto', 'badMessage', 'revoked'],
      maxQueued: null,
    }),
  },
  // R29, R30, R42, R47 (found by the property): an interrupt while "f1" is being admitted
  // cancels the admission to put "f1" back behind the interrupting "f2"; dispose() in the same
  // frame discards "f2" before the cancelled admission unwinds. The unwind then re-enqueues "f1"
  // (enqueue(f1) after discard(f2)) while disposing: it is never discarded, stays outstanding
  // after dispose(), `idle` is published with it waking, and outcome(f1) never settles.
  {
    name: 'R29, R30, R42, R47: a prompt an interrupt puts back while dispose() unwinds is discarded',
    schedule: new Schedule({
      steps: [
        { t: 0, op: { kind: 'followup' } },
        { t: 3, op: { kind: 'followup', ifBusy: 'interrupt' } },
        { t: 3, op: { kind: 'dispose' } },
      ],
      replies: [],
      admissions: [{ kind: 'allow', d: 3, rewrite: false, contexts: 0 }],
      stepHooks: [],
      turnStopping: [],
      requestErrors: [],
      reactions: [],
      thrown: [],
      maxQueued: null,
    }),
  },
  // R13, R13c, V1 (found by the property): promptSubmit blocks "f1", so steering "s2" and
  // context "i3" staged during its admission stay staged (R13c). remove(s2) while idle withdraws
  // the only steering, but "i3" is left staged with nothing to carry it: it is not appended, and
  // the later idle inject "i5" is appended at once, before it (i3 comes only at dispose()).
  {
    name: 'R13, V1: removing the last staged steering while idle appends the staged context',
    schedule: new Schedule({
      steps: [
        { t: 0, op: { kind: 'followup' } },
        { t: 3, op: { kind: 'steer' } },
        { t: 3, op: { kind: 'inject' } },
        { t: 9, op: { kind: 'remove', pick: 1 } },
        { t: 10, op: { kind: 'inject' } },
      ],
      replies: [],
      admissions: [{ kind: 'block', d: 3 }],
      stepHooks: [],
      turnStopping: [],
      requestErrors: [],
      reactions: [],
      thrown: [],
      maxQueued: null,
    }),
  },
  // R12 (found by the property, shrunk by hand): "s2" is left staged by the blocked admission
  // of "f1" (R13c) and is the inherited prefix of the claim of "f3". During that admission
  // remove(s2) withdraws it and steer("s5") is staged; the admission then writes "s5" before the
  // prompt, as if it were inherited: the prefix is taken by its length at the claim, not by its
  // entries. (Withdrawing an inherited context instead does the same.)
  {
    name: 'R12: withdrawing an inherited entry during an admission keeps later steering after the prompt',
    schedule: new Schedule({
      steps: [
        { t: 0, op: { kind: 'followup' } },
        { t: 1, op: { kind: 'steer' } },
        { t: 5, op: { kind: 'followup' } },
        { t: 6, op: { kind: 'remove', pick: 1 } },
        { t: 6, op: { kind: 'steer' } },
      ],
      replies: [{ kind: 'stream', words: 1, calls: [], finish: 'stop', gaps: [0], trailing: false }],
      admissions: [
        { kind: 'block', d: 3 },
        { kind: 'allow', d: 3, rewrite: false, contexts: 0 },
      ],
      stepHooks: [],
      turnStopping: [],
      requestErrors: [],
      reactions: [],
      thrown: [],
      maxQueued: null,
    }),
  },
  // R48 (found by the property, shrunk by hand): with maxQueued 1, a `running` subscriber
  // cancels the claim of "f1" before its dequeue, and the cancel discards "f1". While that claim
  // unwinds, the bound still subtracts "the head being dequeued" from an empty queue, so both
  // sends of the discard's subscribers pass: "r3p" is accepted with "r2f" already waiting, two
  // waiting items under a bound of one.
  {
    name: 'R48: maxQueued holds while a cancelled claim unwinds',
    schedule: new Schedule({
      steps: [{ t: 0, op: { kind: 'followup' } }],
      replies: [],
      admissions: null,
      stepHooks: [],
      turnStopping: [],
      requestErrors: [],
      reactions: [
        { on: 'running', nth: 1, op: { kind: 'cancel', cause: 'user', keepInbox: false } },
        { on: 'discard', nth: 1, op: { kind: 'followup' } },
        { on: 'discard', nth: 1, op: { kind: 'parked' } },
      ],
      thrown: [],
      maxQueued: 1,
    }),
  },
  // R12/R13, V1 (found by the soak): "s5" is staged with the context "i4" during an admission
  // that is then blocked, so both wait for the next admitted prompt (R13c). A `running`
  // subscriber of the next claim removes "s5": "i4" is left alone in the inherited prefix and
  // entered turn 2 as if a keepInbox cancel had kept it, instead of being appended at once.
  {
    name: 'R13, V1: withdrawing the last inherited steering during a claim appends the inherited context at once',
    schedule: new Schedule({
      steps: [
        { t: 0, op: { kind: 'followup' } },
        { t: 3, op: { kind: 'followup' } },
        { t: 3, op: { kind: 'steer' } },
        { t: 7, op: { kind: 'inject' } },
        { t: 7, op: { kind: 'steer' } },
        { t: 8, op: { kind: 'followup', ifBusy: 'reject' } },
      ],
      replies: [
        { kind: 'stream', words: 0, calls: [], finish: 'stop', gaps: [0], trailing: false },
        { kind: 'fail', after: 0, gap: 0 },
      ],
      admissions: [
        { kind: 'block', d: 0 },
        { kind: 'allow', d: 0, rewrite: false, contexts: 0 },
        { kind: 'block', d: 1 },
        { kind: 'allow', d: 0, rewrite: false, contexts: 0 },
      ],
      stepHooks: [{ kind: 'ok', d: 1 }],
      turnStopping: [{ kind: 'ok', d: 2 }],
      requestErrors: [],
      reactions: [{ on: 'running', nth: 3, op: { kind: 'remove', pick: 1 } }],
      thrown: [],
      maxQueued: null,
    }),
  },
  // R27, R68: a cancel-requested subscriber's interrupting steer cut the step the cancel was about
  // to abort: it was drained into the aborted turn and a new step made a model request (using up
  // the next reply) before the abort. A cut now waits for no cancel in flight; the steer is a
  // plain one, cleared or kept with the rest.
  {
    name: 'R27, R68: an interrupting steer from a cancel-requested subscriber cuts nothing',
    schedule: new Schedule({
      steps: [
        { t: 0, op: { kind: 'followup', ifBusy: 'reject' } },
        { t: 3, op: { kind: 'followup', ifBusy: 'interrupt' } },
      ],
      replies: [
        { kind: 'stream', words: 0, calls: [], finish: 'stop', gaps: [2], trailing: false },
        { kind: 'stream', words: 0, calls: [], finish: 'stop', gaps: [0], trailing: false },
      ],
      admissions: [
        { kind: 'allow', d: 1, rewrite: false, contexts: 0 },
        { kind: 'allow', d: 0, rewrite: false, contexts: 0 },
      ],
      stepHooks: [],
      turnStopping: [],
      requestErrors: [],
      reactions: [{ on: 'cancel-requested', nth: 1, op: { kind: 'steer', interrupt: 'steer' } }],
      thrown: [],
      maxQueued: null,
    }),
  },
  // Pinned, not found: a top-level cancel of the running call of a batch (the next call then runs),
  // a cancel of the same call again and of an unknown id, then an interrupting steer through send()
  // between two deltas of the next answer, whose tool call is dropped.
  {
    name: 'R68, R71: a top-level cancel of one running call, then a cut of the next answer',
    schedule: new Schedule({
      steps: [
        { t: 0, op: { kind: 'followup' } },
        { t: 4, op: { kind: 'cancelCall', among: 'open', pick: 1, reason: true } },
        { t: 4, op: { kind: 'cancelCall', among: 'any', pick: 1, reason: false } },
        { t: 4, op: { kind: 'cancelCall', among: 'unknown', pick: 0, reason: false } },
        { t: 9, op: { kind: 'steer', interrupt: 'send' } },
      ],
      replies: [
        {
          kind: 'stream',
          words: 1,
          calls: [
            { tool: 'hang', d: 0 },
            { tool: 'pok', d: 2 },
          ],
          finish: 'tool-calls',
          gaps: [0],
          trailing: false,
        },
        {
          kind: 'stream',
          words: 3,
          calls: [{ tool: 'ok', d: 0 }],
          finish: 'tool-calls',
          gaps: [2],
          trailing: false,
        },
        { kind: 'stream', words: 1, calls: [], finish: 'stop', gaps: [1], trailing: false },
      ],
      admissions: null,
      stepHooks: [],
      turnStopping: [],
      requestErrors: [],
      reactions: [],
      thrown: [],
      maxQueued: null,
    }),
  },
]
