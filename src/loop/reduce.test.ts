/**
 * Table tests of the pure reducer, one `describe` per handler group. Every row starts from a
 * deep-frozen state built over `initialState('a')` and feeds one deep-frozen input, so a handler
 * that mutated anything would throw. Outputs are compared as compact labels (the `label()` of
 * `steerable/testing` for events, a short form for effects) or, where the payload matters, as
 * exact `Output` objects. Ignored inputs must return the very same state object and no output.
 */
import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '../events.js'
import { emptyFifo, type Fifo, fifoPush, fifoToArray } from '../inbox/fifo.js'
import type { AgentMessage, AgentMessageId, MessageSource, ToolCallBlock } from '../messages/types.js'
import { label } from '../testing/label.js'
import type { Effect, Input, Output, Signal } from './inputs.js'
import { reduce } from './reduce.js'
import {
  type Between,
  type Claim,
  type DeliveryState,
  EMPTY_DRAFT,
  initialState,
  type OutboxEntry,
  type QueuedItem,
  type StepDraft,
  type Turn,
} from './state.js'

// ---------------------------------------------------------------------------------------------
// Fixtures

const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}

const USER: MessageSource = { kind: 'user' }
const PLUGIN: MessageSource = { kind: 'plugin', plugin: 'p' }

/** A message whose text is its id, so labels name it: `enqueue(m1,queued)`, `user(m1)`. */
const msg = (id: string, source: MessageSource = USER): AgentMessage =>
  deepFreeze({ id: id as AgentMessageId, content: [{ type: 'text', text: id }], source })
const q = (id: string, wakeup = true): QueuedItem => deepFreeze({ message: msg(id), wakeup })
const S = (id: string): OutboxEntry => deepFreeze({ kind: 'steering', message: msg(id) })
const C = (id: string): OutboxEntry => deepFreeze({ kind: 'context', data: msg(id) })

type Patch = {
  readonly [K in keyof DeliveryState]?: K extends 'queue' ? readonly QueuedItem[] : DeliveryState[K]
}

/** A frozen state: `initialState('a')` with a patch; `waking` follows the queue unless given. */
const make = (patch: Patch = {}): DeliveryState => {
  const { queue = [], ...rest } = patch
  const fifo = queue.reduce<Fifo<QueuedItem>>((f, item) => fifoPush(f, item), emptyFifo())
  return deepFreeze({
    ...initialState('a'),
    waking: queue.filter((i) => i.wakeup).length,
    ...rest,
    queue: fifo,
  })
}
const claim = (patch: Partial<Claim> = {}): Claim => ({
  kind: 'claim',
  id: 1,
  turn: 1,
  inherited: 0,
  phase: 'opening',
  ...patch,
})
const turn = (patch: Partial<Turn> = {}): Turn => ({
  kind: 'turn',
  id: 1,
  turn: 1,
  step: 1,
  phase: 'model',
  stepOpen: true,
  draft: EMPTY_DRAFT,
  toolResults: 0,
  concluded: false,
  maxTokens: false,
  ...patch,
})
const between = (patch: Partial<Between> = {}): Between => ({
  kind: 'between',
  id: 1,
  checkpointed: false,
  ...patch,
})
/** A fresh step, as `beginStep` opens it. */
const stepHook = (patch: Partial<Turn> = {}): Turn => turn({ phase: 'step-hook', stepOpen: false, ...patch })

const idle = (patch: Patch = {}) => make(patch)
const claiming = (c: Partial<Claim> = {}, patch: Patch = {}) =>
  make({ status: 'running', window: true, activity: claim(c), nextActivity: 2, ...patch })
const turning = (t: Partial<Turn> = {}, patch: Patch = {}) =>
  make({ status: 'running', window: true, lastTurn: 1, activity: turn(t), nextActivity: 2, ...patch })
const betweenTurns = (b: Partial<Between> = {}, patch: Patch = {}) =>
  make({ status: 'running', lastTurn: 1, activity: between(b), nextActivity: 2, ...patch })

const queueSend = (id: string, target: 'next-turn' | 'next-step', wakeup: boolean, source = USER): Input => ({
  type: 'queue',
  message: msg(id, source),
  target,
  wakeup,
})
const followup = (id: string) => queueSend(id, 'next-turn', true)
const parked = (id: string) => queueSend(id, 'next-turn', false)
const steer = (id: string, source = USER) => queueSend(id, 'next-step', true, source)
const inject = (id: string): Input => ({ type: 'inject', message: msg(id) })
const cancel = (kind: 'user' | 'parent', keepInbox = false): Input => ({
  type: 'cancel',
  cause: { kind },
  keepInbox,
})
const clear = (kind: 'user' | 'parent', keepInbox = false): Input => ({
  type: 'cancel/clear',
  cause: { kind },
  keepInbox,
})

const call = (id: string, name = 'read'): ToolCallBlock => ({ type: 'tool-call', id, name, arguments: '{}' })
const draft = (patch: Partial<StepDraft>): StepDraft => ({ ...EMPTY_DRAFT, ...patch })
const text = (t: string) => ({ type: 'text' as const, text: t })
const boom = new Error('boom')

// ---------------------------------------------------------------------------------------------
// Output labels

const signalLabel = (s: Signal): string => {
  if (s.type === 'cancel/clear') return `cancel/clear(${s.cause.kind}${s.keepInbox ? ',keep' : ''})`
  return 'activity' in s ? `${s.type}#${s.activity}` : s.type
}

const effectLabel = (e: Effect): string => {
  switch (e.kind) {
    case 'post':
    case 'schedule':
      return `${e.kind} ${signalLabel(e.input)}`
    case 'abort':
      return `abort#${e.activity}(${e.cause.kind})`
    case 'stop':
    case 'prompt-submit':
    case 'checkpoint':
      return `${e.kind}#${e.activity}`
    case 'step-hook':
    case 'model':
    case 'turn-stopping':
    case 'request-error':
      return `${e.kind}#${e.activity}(${e.turn}.${e.step})`
    case 'tools':
      return `tools#${e.activity}(${e.turn}.${e.step},${e.calls.map((c) => c.id).join(',')})`
    case 'finalize':
    case 'complete':
      return e.kind
  }
}

const show = (o: Output): string => {
  if (o.kind === 'live') return label(o.event)
  if (o.kind === 'durable') return label({ seq: 0, ...o.draft } as SessionEvent)
  return effectLabel(o.effect)
}

/** A label, or an exact `Output` where the payload matters. */
type Expected = string | Output

const live = (event: Record<string, unknown>): Output =>
  ({ kind: 'live', event: { ...event, agentId: 'a' } }) as Output
const durable = (type: string, data: unknown): Output =>
  ({ kind: 'durable', draft: { type, data } }) as Output
const effect = (e: Effect): Output => ({ kind: 'effect', effect: e })

/**
 * The state as compared by the tables: the queue as an array (equal queues compare equal whatever
 * their internal shape), and on the activity, a bookkeeping list that is empty counts as absent.
 */
const view = (s: DeliveryState) => ({
  ...s,
  queue: fifoToArray(s.queue),
  activity:
    s.activity &&
    Object.fromEntries(
      Object.entries(s.activity).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0)),
    ),
})

type Row = readonly [
  name: string,
  before: DeliveryState,
  input: Input,
  out: readonly Expected[],
  after: Patch,
]
type IgnoredRow = readonly [name: string, before: DeliveryState, input: Input]

const checkRow = (...[, before, input, out, after]: Row): void => {
  const result = reduce(before, deepFreeze(input))
  const actual = result.out.map((o, i) => (typeof out[i] === 'object' ? o : show(o)))
  expect(actual).toStrictEqual(out)
  expect(view(result.state)).toStrictEqual({ ...view(before), ...after })
}

const checkIgnored = (...[, before, input]: IgnoredRow): void => {
  const result = reduce(before, deepFreeze(input))
  expect(result.out).toStrictEqual([])
  expect(result.state).toBe(before)
}

/**
 * Folds inputs through `reduce` with a minimal effect runner: `post` runs right after the current
 * reduction (depth-first), `schedule` and effect outcomes run later in FIFO order; hooks allow,
 * models answer with an empty `stop`, checkpoints succeed. Returns every output label.
 */
const simulate = (start: DeliveryState, inputs: readonly Input[]) => {
  let state = start
  const labels: string[] = []
  const later: Input[] = [...inputs]
  const run = (input: Input): void => {
    const result = reduce(state, deepFreeze(input))
    state = result.state
    const posted: Signal[] = []
    for (const o of result.out) {
      labels.push(show(o))
      if (o.kind !== 'effect') continue
      const e = o.effect
      if (e.kind === 'post') posted.push(e.input)
      else if (e.kind === 'schedule') later.push(e.input)
      else if (e.kind === 'prompt-submit')
        later.push({ type: 'admission/allowed', activity: e.activity, admission: { additionalContexts: [] } })
      else if (e.kind === 'step-hook')
        later.push({ type: 'step-hook/done', activity: e.activity, step: e.step })
      else if (e.kind === 'model') later.push({ type: 'model/complete', activity: e.activity, step: e.step })
      else if (e.kind === 'turn-stopping') later.push({ type: 'turn-stopping/done', activity: e.activity })
      else if (e.kind === 'request-error') later.push({ type: 'request-error/done', activity: e.activity })
      else if (e.kind === 'checkpoint') later.push({ type: 'checkpoint/done', activity: e.activity })
      else if (e.kind === 'finalize') later.push({ type: 'finalized' })
    }
    for (const p of posted) run(p)
  }
  for (let input = later.shift(); input; input = later.shift()) run(input)
  return { state, labels }
}

// ---------------------------------------------------------------------------------------------
// Acceptance: sends (R3–R6, R8, R29)

describe('accept: routing (R4) and the deferred wake (R6)', () => {
  const rows: readonly Row[] = [
    [
      'R4/R6: an idle followup is queued waking and schedules one wake',
      idle(),
      followup('m1'),
      [live({ type: 'agent/inbox/enqueue', message: msg('m1'), placement: 'queued' }), 'schedule wake'],
      { queue: [q('m1')], waking: 1, wakeScheduled: true },
    ],
    [
      'R6: a second followup of the same stack schedules no second wake',
      idle({ queue: [q('m1')], wakeScheduled: true }),
      followup('m2'),
      ['enqueue(m2,queued)'],
      { queue: [q('m1'), q('m2')], waking: 2 },
    ],
    [
      'R4/R8: an idle parked send is queued and does not wake',
      idle(),
      parked('p1'),
      ['enqueue(p1,queued)'],
      { queue: [q('p1', false)] },
    ],
    [
      'R8: a waking send behind a parked one schedules the wake',
      idle({ queue: [q('p1', false)] }),
      followup('m2'),
      ['enqueue(m2,queued)', 'schedule wake'],
      { queue: [q('p1', false), q('m2')], waking: 1, wakeScheduled: true },
    ],
    [
      'R4: an idle steer (window closed) is queued waking like a followup, keeping its source',
      idle(),
      steer('s1', PLUGIN),
      [
        live({ type: 'agent/inbox/enqueue', message: msg('s1', PLUGIN), placement: 'queued' }),
        'schedule wake',
      ],
      { queue: [{ message: msg('s1', PLUGIN), wakeup: true }], waking: 1, wakeScheduled: true },
    ],
    [
      'R6: a second idle steer of the same stack is a second queued turn, not steering',
      idle({ queue: [q('s1')], wakeScheduled: true }),
      steer('s2'),
      ['enqueue(s2,queued)'],
      { queue: [q('s1'), q('s2')], waking: 2 },
    ],
    [
      'R4: a followup during a turn is queued; no wake while work is active',
      turning(),
      followup('m2'),
      ['enqueue(m2,queued)'],
      { queue: [q('m2')], waking: 1 },
    ],
    [
      'R4: a parked send during a turn is queued parked',
      turning(),
      parked('p2'),
      ['enqueue(p2,queued)'],
      { queue: [q('p2', false)] },
    ],
    [
      'R4: a steer while the claim opens (window open) is steering',
      claiming(),
      steer('s1'),
      [live({ type: 'agent/inbox/enqueue', message: msg('s1'), placement: 'steering' })],
      { outbox: [S('s1')] },
    ],
    [
      'R4: a steer during a turn is staged after what is already staged',
      turning({}, { outbox: [C('c1')] }),
      steer('s1'),
      ['enqueue(s1,steering)'],
      { outbox: [C('c1'), S('s1')] },
    ],
    [
      'R4/R19: a steer between turns (window closed, status running) is queued, no wake scheduled',
      betweenTurns(),
      steer('s1'),
      ['enqueue(s1,queued)'],
      { queue: [q('s1')], waking: 1 },
    ],
    [
      'R4: routing reads the window, not the status (window open while the status is idle)',
      make({ window: true, activity: claim(), nextActivity: 2 }),
      steer('s1'),
      ['enqueue(s1,steering)'],
      { outbox: [S('s1')] },
    ],
    [
      'R4: an inject while the window is open is staged as context, no event',
      turning(),
      inject('i1'),
      [],
      { outbox: [C('i1')] },
    ],
    [
      'R4: an idle inject is appended at once with its id: no turn, no status change',
      idle(),
      inject('i1'),
      [durable('user/message', msg('i1'))],
      {},
    ],
    ['R4/R19: an inject between turns is appended at once', betweenTurns(), inject('i1'), ['user(i1)'], {}],
    [
      'R29: a followup while dispose() unwinds is accepted, then discarded',
      turning({ abort: { cause: { kind: 'disposed' }, keepInbox: false } }, { disposal: 'disposing' }),
      followup('m2'),
      ['enqueue(m2,queued)', live({ type: 'agent/inbox/discard', messages: [msg('m2')] })],
      {},
    ],
    [
      'R29: a steer while dispose() unwinds an open window is enqueued as steering, then discarded',
      turning({ abort: { cause: { kind: 'disposed' }, keepInbox: false } }, { disposal: 'disposing' }),
      steer('s1'),
      ['enqueue(s1,steering)', 'discard(s1)'],
      {},
    ],
    [
      'R29: an inject while dispose() unwinds is appended',
      turning({ abort: { cause: { kind: 'disposed' }, keepInbox: false } }, { disposal: 'disposing' }),
      inject('i1'),
      ['user(i1)'],
      {},
    ],
  ]
  it.each(rows)('%s', checkRow)

  it.each([1, 2, 5, 40])('R6/R9: a burst of %i sends from idle schedules exactly one wake', (n) => {
    const sends = Array.from(
      { length: n },
      (_, i) => [followup(`m${i}`), steer(`s${i}`), parked(`p${i}`), inject(`i${i}`)][i % 4] as Input,
    )
    let state = idle()
    const out: Output[] = []
    for (const send of sends) {
      const r = reduce(state, deepFreeze(send))
      state = deepFreeze(r.state)
      out.push(...r.out)
    }
    expect(out.map(show).filter((l) => l.startsWith('schedule'))).toStrictEqual(['schedule wake'])
    expect(state.status).toBe('idle')
    expect(state.window).toBe(false)
    expect(state.activity).toBeNull()
  })
})

// ---------------------------------------------------------------------------------------------
// Claim and admission (R6, R8–R14)

const deciding = (patch: Partial<Claim> = {}) => claim({ phase: 'deciding', item: q('m1'), ...patch })
const allowed = (
  admission: Extract<Input, { type: 'admission/allowed' }>['admission'] = { additionalContexts: [] },
) => ({ type: 'admission/allowed', activity: 1, admission }) as const

describe('claim: wake, dequeue, submit (R6, R8, R10)', () => {
  const rows: readonly Row[] = [
    [
      'R6/R10: the wake opens the window and publishes running, then posts the dequeue',
      idle({ queue: [q('m1')], wakeScheduled: true }),
      { type: 'wake' },
      ['running', 'post claim/dequeue#1'],
      { wakeScheduled: false, status: 'running', window: true, activity: claim(), nextActivity: 2 },
    ],
    [
      'R7: the claim opens the turn after the last one (history continues)',
      idle({ queue: [q('m1')], wakeScheduled: true, lastTurn: 5, nextActivity: 9 }),
      { type: 'wake' },
      ['running', 'post claim/dequeue#9'],
      {
        wakeScheduled: false,
        status: 'running',
        window: true,
        activity: claim({ id: 9, turn: 6 }),
        nextActivity: 10,
      },
    ],
    [
      'R8: a waking item behind a parked head wakes the driver',
      idle({ queue: [q('p1', false), q('m2')], wakeScheduled: true }),
      { type: 'wake' },
      ['running', 'post claim/dequeue#1'],
      { wakeScheduled: false, status: 'running', window: true, activity: claim(), nextActivity: 2 },
    ],
    [
      'R12: the claim counts the staged outbox as its inherited prefix',
      idle({ queue: [q('m1')], wakeScheduled: true, outbox: [S('s0'), C('c0')] }),
      { type: 'wake' },
      ['running', 'post claim/dequeue#1'],
      {
        wakeScheduled: false,
        status: 'running',
        window: true,
        activity: claim({ inherited: 2 }),
        nextActivity: 2,
      },
    ],
    [
      'R8: a wake with only parked items left only clears the flag',
      idle({ queue: [q('p1', false)], wakeScheduled: true }),
      { type: 'wake' },
      [],
      { wakeScheduled: false },
    ],
    [
      'R24: a wake that fires while a retry turn runs only clears the flag',
      turning({ phase: 'step-hook', stepOpen: false }, { queue: [q('m1')], wakeScheduled: true }),
      { type: 'wake' },
      [],
      { wakeScheduled: false },
    ],
    [
      'R10: the dequeue publishes the head, then posts the submit',
      claiming({}, { queue: [q('m1'), q('m2')] }),
      { type: 'claim/dequeue', activity: 1 },
      [live({ type: 'agent/inbox/dequeue', message: msg('m1') }), 'post claim/submit#1'],
      { queue: [q('m2')], waking: 1, activity: claim({ phase: 'dequeued', item: q('m1') }) },
    ],
    [
      'R8: a parked head is claimed without counting as waking',
      claiming({}, { queue: [q('p1', false), q('m2')] }),
      { type: 'claim/dequeue', activity: 1 },
      ['dequeue(p1)', 'post claim/submit#1'],
      { queue: [q('m2')], waking: 1, activity: claim({ phase: 'dequeued', item: q('p1', false) }) },
    ],
    [
      'R11: the submit starts promptSubmit with the prompt and its source',
      claiming({ phase: 'dequeued', item: { message: msg('m1', PLUGIN), wakeup: true } }),
      { type: 'claim/submit', activity: 1 },
      [
        effect({
          kind: 'prompt-submit',
          activity: 1,
          content: msg('m1', PLUGIN).content,
          source: PLUGIN,
        }),
      ],
      { activity: claim({ phase: 'deciding', item: { message: msg('m1', PLUGIN), wakeup: true } }) },
    ],
  ]
  it.each(rows)('%s', checkRow)

  const aborted = { cause: { kind: 'user' }, keepInbox: false } as const
  const ignored: readonly IgnoredRow[] = [
    [
      'R6: a wake while busy, with no wake scheduled, is ignored',
      turning({}, { queue: [q('m2')] }),
      { type: 'wake' },
    ],
    ['R29: a wake after dispose() is ignored', idle({ disposal: 'finalizing' }), { type: 'wake' }],
    [
      'R10: a stale dequeue is ignored',
      claiming({}, { queue: [q('m1')] }),
      { type: 'claim/dequeue', activity: 2 },
    ],
    [
      'R10: a repeated dequeue is ignored',
      claiming({ phase: 'dequeued', item: q('m1') }, { queue: [q('m2')] }),
      { type: 'claim/dequeue', activity: 1 },
    ],
    [
      'R14: a dequeue after a cancel hit the claim is ignored',
      claiming({ abort: aborted }, { queue: [q('m1')] }),
      { type: 'claim/dequeue', activity: 1 },
    ],
    [
      'R14: a submit after a cancel hit the claim is ignored (the hook never runs)',
      claiming({ phase: 'dequeued', item: q('m1'), abort: aborted }),
      { type: 'claim/submit', activity: 1 },
    ],
    ['R10: a submit before the dequeue is ignored', claiming(), { type: 'claim/submit', activity: 1 }],
  ]
  it.each(ignored)('%s', checkIgnored)
})

describe('admission: allowed (R7, R12)', () => {
  const rows: readonly Row[] = [
    [
      'R12: turn/start, the prompt with its id, then step 1',
      claiming({ phase: 'deciding', item: q('m1') }),
      allowed(),
      [
        durable('turn/start', { turn: 1, trigger: { kind: 'message', source: USER } }),
        durable('user/message', { content: [text('m1')], source: USER, id: 'm1' }),
        'step-hook#1(1.1)',
      ],
      { lastTurn: 1, activity: stepHook() },
    ],
    [
      'R12: inherited prefix, rewritten prompt (original source), additional contexts, then admission-time entries',
      claiming(deciding({ inherited: 2, item: { message: msg('m1', PLUGIN), wakeup: true } }), {
        outbox: [S('s0'), C('c0'), S('s1'), C('c1')],
      }),
      allowed({ content: [text('rewritten')], additionalContexts: [msg('a1'), msg('a2')] }),
      [
        durable('turn/start', { turn: 1, trigger: { kind: 'message', source: PLUGIN } }),
        'dequeue(s0)',
        durable('steering/message', { turn: 1, content: [text('s0')], source: USER, id: 's0' }),
        'user(c0)',
        durable('user/message', { content: [text('rewritten')], source: PLUGIN, id: 'm1' }),
        'user(a1)',
        'user(a2)',
        'dequeue(s1)',
        'steering(s1)',
        'user(c1)',
        'step-hook#1(1.1)',
      ],
      { lastTurn: 1, outbox: [], activity: stepHook() },
    ],
    [
      'R7: turn numbers continue from history',
      make({
        status: 'running',
        window: true,
        lastTurn: 6,
        nextActivity: 4,
        activity: deciding({ id: 3, turn: 7 }),
      }),
      { type: 'admission/allowed', activity: 3, admission: { additionalContexts: [] } },
      ['turn/start(7)', 'user(m1)', 'step-hook#3(7.1)'],
      { lastTurn: 7, activity: stepHook({ id: 3, turn: 7 }) },
    ],
  ]
  it.each(rows)('%s', checkRow)

  const ignored: readonly IgnoredRow[] = [
    ['R12: a stale decision is ignored', claiming(deciding()), { ...allowed(), activity: 2 }],
    [
      'R13: a decision after a cancel hit the admission is ignored',
      claiming(deciding({ abort: { cause: { kind: 'parent' }, keepInbox: true } })),
      allowed(),
    ],
    [
      'R11: a decision before the hook started is ignored',
      claiming({ phase: 'dequeued', item: q('m1') }),
      allowed(),
    ],
    [
      'R13: a block for a claim that is no longer deciding is ignored',
      turning(),
      { type: 'admission/blocked', activity: 1, reason: 'no' },
    ],
  ]
  it.each(ignored)('%s', checkIgnored)
})

describe('admission: rejected (R13, R13b)', () => {
  const rejected = { window: false, activity: between({ checkpointed: true }) } as const
  const rows: readonly Row[] = [
    [
      'R13: a block writes nothing of the prompt, closes the window and schedules the next move',
      claiming(deciding()),
      { type: 'admission/blocked', activity: 1, reason: 'no' },
      ['stop#1', 'schedule advance#1'],
      rejected,
    ],
    [
      'R13: a block appends a context-only outbox at once, in order',
      claiming(deciding(), { outbox: [C('c0'), C('c1')] }),
      { type: 'admission/blocked', activity: 1, reason: 'no' },
      ['stop#1', 'user(c0)', 'user(c1)', 'schedule advance#1'],
      { ...rejected, outbox: [] },
    ],
    [
      'R13: with steering staged, the whole outbox stays for retry() or the next prompt',
      claiming(deciding(), { outbox: [C('c0'), S('s1'), C('c1')] }),
      { type: 'admission/blocked', activity: 1, reason: 'no' },
      ['stop#1', 'schedule advance#1'],
      rejected,
    ],
    [
      'R13: a hook failure is an agent/error on the turn it would have opened, step 0',
      claiming(deciding({ turn: 4 }), { lastTurn: 3 }),
      { type: 'admission/failed', activity: 1, error: boom },
      [live({ type: 'agent/error', turn: 4, step: 0, error: boom }), 'stop#1', 'schedule advance#1'],
      rejected,
    ],
    [
      'R13: a failed admission appends staged contexts after the error',
      claiming(deciding(), { outbox: [C('c0')] }),
      { type: 'admission/failed', activity: 1, error: boom },
      ['error(1.0)', 'stop#1', 'user(c0)', 'schedule advance#1'],
      { ...rejected, outbox: [] },
    ],
  ]
  it.each(rows)('%s', checkRow)
})

// ---------------------------------------------------------------------------------------------
// Steps (R15–R18, R20, R21, R23, R24)

const modelEvent = (event: Extract<Input, { type: 'model/event' }>['event'], step = 1): Input => ({
  type: 'model/event',
  activity: 1,
  step,
  event,
})
const complete = (step = 1): Input => ({ type: 'model/complete', activity: 1, step })
const result = (index: number, id: string, concluded = false): Input => ({
  type: 'tool/result',
  activity: 1,
  step: 1,
  index,
  result: { type: 'tool-result', toolCallId: id, content: [text('ok')] },
  concluded,
})
const closed = { window: false, activity: between() } as const
const finished = ['turn/end(1,completed)', 'settled(1,completed)', 'checkpoint#1']

describe('steps: step hook and model stream (R15, R20a)', () => {
  const hi = draft({ content: [text('Hi')] })
  const rows: readonly Row[] = [
    [
      'R15/R20a: after the step hook, the outbox drains (acceptance order), then step/start, then the model',
      turning({ phase: 'step-hook', stepOpen: false }, { outbox: [C('c1'), S('s1'), C('c2')] }),
      { type: 'step-hook/done', activity: 1, step: 1 },
      ['user(c1)', 'dequeue(s1)', 'steering(s1)', 'user(c2)', 'step/start(1.1)', 'model#1(1.1)'],
      { outbox: [], activity: turn() },
    ],
    [
      'R15: an empty outbox drains nothing',
      turning({ step: 2, phase: 'step-hook', stepOpen: false }),
      { type: 'step-hook/done', activity: 1, step: 2 },
      ['step/start(1.2)', 'model#1(1.2)'],
      { activity: turn({ step: 2 }) },
    ],
    [
      'R15: a text delta is published live and folded into the draft',
      turning(),
      modelEvent({ type: 'text', text: 'Hi' }),
      [live({ type: 'agent/stream/delta', turn: 1, step: 1, kind: 'text', text: 'Hi' })],
      { activity: turn({ draft: hi }) },
    ],
    [
      'R15: consecutive text deltas merge into one block',
      turning({ draft: hi }),
      modelEvent({ type: 'text', text: ' there' }),
      ['delta( there)'],
      { activity: turn({ draft: draft({ content: [text('Hi there')] }) }) },
    ],
    [
      'R15: a reasoning delta after text opens a new block',
      turning({ draft: hi }),
      modelEvent({ type: 'reasoning', text: 'hmm' }),
      ['delta(hmm)'],
      { activity: turn({ draft: draft({ content: [text('Hi'), { type: 'reasoning', text: 'hmm' }] }) }) },
    ],
    [
      'R15: a tool call is recorded in content and calls',
      turning(),
      modelEvent({ type: 'tool-call', id: 'c1', name: 'read', arguments: '{}' }),
      [],
      { activity: turn({ draft: draft({ content: [call('c1')], toolCalls: [call('c1')] }) }) },
    ],
    [
      'R15: finish records the reason and usage',
      turning({ draft: hi }),
      modelEvent({ type: 'finish', reason: 'stop', usage: { inputTokens: 3, outputTokens: 1 } }),
      [],
      {
        activity: turn({
          draft: draft({ content: [text('Hi')], finish: 'stop', usage: { inputTokens: 3, outputTokens: 1 } }),
        }),
      },
    ],
  ]
  it.each(rows)('%s', checkRow)

  const aborted = { cause: { kind: 'user' }, keepInbox: false } as const
  const ignored: readonly IgnoredRow[] = [
    [
      'R15: model events after finish are ignored',
      turning({ draft: draft({ finish: 'stop' }) }),
      modelEvent({ type: 'text', text: 'late' }),
    ],
    [
      'R15: a model event of another step is ignored',
      turning({ step: 2 }),
      modelEvent({ type: 'text', text: 'x' }),
    ],
    [
      'R15: a model event of a stale activity is ignored',
      turning({ id: 2 }),
      modelEvent({ type: 'text', text: 'x' }),
    ],
    [
      'R25: model events after the abort are ignored',
      turning({ abort: aborted }),
      modelEvent({ type: 'text', text: 'x' }),
    ],
    ['R25: a model completion after the abort is ignored', turning({ abort: aborted }), complete()],
    [
      'R25: a model failure after the abort is ignored',
      turning({ abort: aborted }),
      { type: 'model/failed', activity: 1, step: 1, error: boom },
    ],
    [
      'R25: a step hook finishing after the abort is ignored',
      turning({ phase: 'step-hook', stepOpen: false, abort: aborted }),
      { type: 'step-hook/done', activity: 1, step: 1 },
    ],
    [
      'R15: a step hook done outside the step-hook phase is ignored',
      turning(),
      { type: 'step-hook/done', activity: 1, step: 1 },
    ],
    ['R15: a model completion outside the model phase is ignored', turning({ phase: 'tools' }), complete()],
    [
      'R23: a hook failure during the model phase is ignored',
      turning(),
      { type: 'hook/failed', activity: 1, step: 1, error: boom },
    ],
    [
      'R24: request-error done outside that phase is ignored',
      turning(),
      { type: 'request-error/done', activity: 1 },
    ],
    [
      'R16: turn-stopping done outside that phase is ignored',
      turning(),
      { type: 'turn-stopping/done', activity: 1 },
    ],
  ]
  it.each(ignored)('%s', checkIgnored)
})

describe('steps: finish, tools and continuation (R15–R18, R20b, R21)', () => {
  const calls = draft({
    content: [call('c1'), call('c2', 'write')],
    toolCalls: [call('c1'), call('c2', 'write')],
    finish: 'tool-calls',
  })
  const one = draft({ content: [call('c1')], toolCalls: [call('c1')], finish: 'tool-calls' })
  const stopping = (patch: Partial<Turn> = {}) => turn({ phase: 'turn-stopping', stepOpen: false, ...patch })
  const rows: readonly Row[] = [
    [
      'R15/R16: a text-only finish writes the assistant message, closes the step and asks turnStopping',
      turning({
        draft: draft({ content: [text('Hi')], finish: 'stop', usage: { inputTokens: 1, outputTokens: 2 } }),
      }),
      complete(),
      [
        durable('assistant/message', {
          turn: 1,
          step: 1,
          content: [text('Hi')],
          usage: { inputTokens: 1, outputTokens: 2 },
        }),
        'step/end(1.1)',
        'turn-stopping#1(1.1)',
      ],
      {
        activity: stopping({
          draft: draft({ content: [text('Hi')], finish: 'stop', usage: { inputTokens: 1, outputTokens: 2 } }),
        }),
      },
    ],
    [
      'R15: a stream that completes without finish finished with stop; an empty answer is still written',
      turning(),
      complete(),
      [
        durable('assistant/message', { turn: 1, step: 1, content: [] }),
        'step/end(1.1)',
        'turn-stopping#1(1.1)',
      ],
      { activity: stopping() },
    ],
    [
      'R16/R20b: context drained at the end of a step does not force another step',
      turning({}, { outbox: [C('c1')] }),
      complete(),
      ['assistant()', 'user(c1)', 'step/end(1.1)', 'turn-stopping#1(1.1)'],
      { outbox: [], activity: stopping() },
    ],
    [
      'R16/R20b: steering drained at the end of a step runs another step',
      turning({}, { outbox: [S('s1'), C('c1')] }),
      complete(),
      ['assistant()', 'dequeue(s1)', 'steering(s1)', 'user(c1)', 'step/end(1.1)', 'step-hook#1(1.2)'],
      { outbox: [], activity: stepHook({ step: 2 }) },
    ],
    [
      'R15: a finish with tool calls writes the assistant message and runs the batch',
      turning({ draft: calls }),
      complete(),
      ['assistant(read())', 'tools#1(1.1,c1,c2)'],
      { activity: turn({ phase: 'tools', draft: calls }) },
    ],
    [
      'R18: tool calls of a max-tokens finish are not run, and do not continue the turn',
      turning({ draft: draft({ ...one, content: [text('Cut'), call('c1')], finish: 'max-tokens' }) }),
      complete(),
      [
        'assistant(Cut)',
        'tool/call(read)',
        durable('tool/result', {
          turn: 1,
          step: 1,
          result: {
            type: 'tool-result',
            toolCallId: 'c1',
            content: [text('Not run: the answer was cut off at the token limit.')],
            isError: true,
            code: 'NOT_RUN_MAX_TOKENS',
          },
        }),
        'step/end(1.1)',
        'turn-stopping#1(1.1)',
      ],
      {
        activity: stopping({
          maxTokens: true,
          draft: draft({ ...one, content: [text('Cut'), call('c1')], finish: 'max-tokens' }),
        }),
      },
    ],
    [
      'R17: a concluding tool ends the turn after its step, without turnStopping',
      turning({ phase: 'tools', draft: one }),
      result(0, 'c1', true),
      ['tool/call(read)', 'tool/result(c1)', 'step/end(1.1)', ...finished],
      closed,
    ],
    [
      'R17: steering drained in a concluded step stays in this turn',
      turning({ phase: 'tools', draft: one }, { outbox: [S('s1')] }),
      result(0, 'c1', true),
      ['tool/call(read)', 'tool/result(c1)', 'dequeue(s1)', 'steering(s1)', 'step/end(1.1)', ...finished],
      { ...closed, outbox: [] },
    ],
    [
      'R16/R19: turnStopping with nothing staged closes the turn (window closed first)',
      turning({ phase: 'turn-stopping', stepOpen: false }),
      { type: 'turn-stopping/done', activity: 1 },
      [
        durable('turn/end', { turn: 1, reason: { kind: 'completed' } }),
        live({ type: 'agent/settled', turn: 1, reason: { kind: 'completed' } }),
        'checkpoint#1',
      ],
      closed,
    ],
    [
      'R16/R20c: steering staged during turnStopping runs another step',
      turning({ phase: 'turn-stopping', stepOpen: false }, { outbox: [C('c1'), S('s1')] }),
      { type: 'turn-stopping/done', activity: 1 },
      ['user(c1)', 'dequeue(s1)', 'steering(s1)', 'step-hook#1(1.2)'],
      { outbox: [], activity: stepHook({ step: 2 }) },
    ],
    [
      'R16/R20c: context alone staged during turnStopping is drained, and the turn closes',
      turning({ phase: 'turn-stopping', stepOpen: false }, { outbox: [C('c1')] }),
      { type: 'turn-stopping/done', activity: 1 },
      ['user(c1)', ...finished],
      { ...closed, outbox: [] },
    ],
    [
      'R18: a turn with a max-tokens step ends max-tokens and settles completed',
      turning({ phase: 'turn-stopping', stepOpen: false, maxTokens: true }),
      { type: 'turn-stopping/done', activity: 1 },
      ['turn/end(1,max-tokens)', 'settled(1,completed)', 'checkpoint#1'],
      closed,
    ],
  ]
  it.each(rows)('%s', checkRow)

  const ignored: readonly IgnoredRow[] = [
    [
      'R21: a result of another step is ignored',
      turning({ phase: 'tools', draft: calls, step: 2 }),
      result(0, 'c1'),
    ],
    [
      'R21: a result past the batch is ignored',
      turning({ phase: 'tools', draft: one, toolResults: 1 }),
      result(1, 'cx'),
    ],
    [
      'R21: a second result for a recorded call is ignored',
      turning({ phase: 'tools', draft: calls, toolResults: 1 }),
      result(0, 'c1'),
    ],
  ]
  it.each(ignored)('%s', checkIgnored)
})

/** Folds several inputs; returns every output label and the final state. */
const fold = (before: DeliveryState, inputs: readonly Input[]) => {
  let state = before
  const out: Output[] = []
  for (const input of inputs) {
    const r = reduce(state, deepFreeze(input))
    state = deepFreeze(r.state)
    out.push(...r.out)
  }
  return { state, out }
}

describe('steps: the tool batch (R16, R21, R25)', () => {
  const calls = draft({
    content: [call('c1'), call('c2', 'write')],
    toolCalls: [call('c1'), call('c2', 'write')],
    finish: 'tool-calls',
  })
  type ToolRow = readonly [
    name: string,
    before: DeliveryState,
    inputs: readonly Input[],
    out: readonly Expected[],
    at: Pick<Turn, 'phase' | 'step' | 'toolResults'>,
  ]
  const rows: readonly ToolRow[] = [
    [
      'R21: a tool result is recorded right after its call',
      turning({ phase: 'tools', draft: calls }),
      [result(0, 'c1')],
      [
        durable('tool/call', { turn: 1, step: 1, call: call('c1') }),
        durable('tool/result', {
          turn: 1,
          step: 1,
          result: { type: 'tool-result', toolCallId: 'c1', content: [text('ok')] },
        }),
      ],
      { phase: 'tools', step: 1, toolResults: 1 },
    ],
    [
      'R21: results are recorded in model order: a later call that finishes first waits',
      turning({ phase: 'tools', draft: calls }),
      [result(1, 'c2'), result(0, 'c1')],
      [
        'tool/call(read)',
        'tool/result(c1)',
        'tool/call(write)',
        'tool/result(c2)',
        'step/end(1.1)',
        'step-hook#1(1.2)',
      ],
      { phase: 'step-hook', step: 2, toolResults: 0 },
    ],
    [
      'R16/R21: the last result closes the batch; context staged meanwhile enters after it; tools continue the turn',
      turning({ phase: 'tools', draft: calls, toolResults: 1 }, { outbox: [C('c9')] }),
      [result(1, 'c2')],
      ['tool/call(write)', 'tool/result(c2)', 'user(c9)', 'step/end(1.1)', 'step-hook#1(1.2)'],
      { phase: 'step-hook', step: 2, toolResults: 0 },
    ],
  ]
  it.each(rows)('%s', (_name, before, inputs, out, at) => {
    const r = fold(before, inputs)
    expect(r.out.map((o, i) => (typeof out[i] === 'object' ? o : show(o)))).toStrictEqual(out)
    const a = r.state.activity
    expect(
      a?.kind === 'turn' ? { phase: a.phase, step: a.step, toolResults: a.toolResults } : a,
    ).toStrictEqual(at)
    expect(r.state.outbox).toStrictEqual([])
  })

  it('R21: the batch of a later step starts clean', () => {
    const one = draft({ content: [call('c1')], toolCalls: [call('c1')], finish: 'tool-calls' })
    const { out } = fold(turning({ phase: 'tools', draft: one }), [
      result(0, 'c1'),
      { type: 'step-hook/done', activity: 1, step: 2 },
      modelEvent({ type: 'tool-call', id: 'c2', name: 'write', arguments: '{}' }, 2),
      complete(2),
      {
        type: 'tool/result',
        activity: 1,
        step: 2,
        index: 0,
        result: { type: 'tool-result', toolCallId: 'c2', content: [] },
        concluded: false,
      },
    ])
    expect(out.map(show).slice(-6)).toStrictEqual([
      'assistant(write())',
      'tools#1(1.2,c2)',
      'tool/call(write)',
      'tool/result(c2)',
      'step/end(1.2)',
      'step-hook#1(1.3)',
    ])
  })
})

describe('steps: failures (R23, R24)', () => {
  const failed = (step = 1) => ({ turn: 1, reason: { kind: 'error', step, message: 'boom' } })
  const rows: readonly Row[] = [
    [
      'R23: a throwing step hook: agent/error, turn/end error, settled error',
      turning({ step: 2, phase: 'step-hook', stepOpen: false }),
      { type: 'hook/failed', activity: 1, step: 2, error: boom },
      [
        live({ type: 'agent/error', turn: 1, step: 2, error: boom }),
        durable('turn/end', failed(2)),
        live({ type: 'agent/settled', turn: 1, reason: { kind: 'error', error: boom } }),
        'checkpoint#1',
      ],
      closed,
    ],
    [
      'R23/R20: a failed step skips the drains; leftover steering stays staged (R13c)',
      turning({ phase: 'step-hook', stepOpen: false }, { outbox: [S('s1'), C('c1')] }),
      { type: 'hook/failed', activity: 1, step: 1, error: boom },
      ['error(1.1)', 'turn/end(1,error)', 'settled(1,error)', 'checkpoint#1'],
      closed,
    ],
    [
      'R23/V1: staged context without steering is appended after turn/end',
      turning({ phase: 'step-hook', stepOpen: false }, { outbox: [C('c1')] }),
      { type: 'hook/failed', activity: 1, step: 1, error: boom },
      ['error(1.1)', 'turn/end(1,error)', 'user(c1)', 'settled(1,error)', 'checkpoint#1'],
      { ...closed, outbox: [] },
    ],
    [
      'R23: a throwing turnStopping hook fails the turn at its last step',
      turning({ step: 3, phase: 'turn-stopping', stepOpen: false }),
      { type: 'hook/failed', activity: 1, step: 3, error: boom },
      ['error(1.3)', durable('turn/end', failed(3)), 'settled(1,error)', 'checkpoint#1'],
      closed,
    ],
    [
      'R24/R20: a failed request closes the step (no drain) and runs requestError, window still open',
      turning({}, { outbox: [S('s1')] }),
      { type: 'model/failed', activity: 1, step: 1, error: boom },
      ['step/end(1.1)', effect({ kind: 'request-error', activity: 1, turn: 1, step: 1, error: boom })],
      { activity: turn({ phase: 'request-error', stepOpen: false, requestError: boom }) },
    ],
    [
      'R24: after requestError: agent/error, turn/end error, settled error',
      turning({ phase: 'request-error', stepOpen: false, requestError: boom }),
      { type: 'request-error/done', activity: 1 },
      ['error(1.1)', durable('turn/end', failed()), 'settled(1,error)', 'checkpoint#1'],
      closed,
    ],
    [
      'R24: with a retry pending, the failed turn closes without settled',
      turning({ phase: 'request-error', stepOpen: false, requestError: boom }, { retryPending: true }),
      { type: 'request-error/done', activity: 1 },
      ['error(1.1)', 'turn/end(1,error)', 'checkpoint#1'],
      closed,
    ],
  ]
  it.each(rows)('%s', checkRow)
})

// ---------------------------------------------------------------------------------------------
// Between turns: checkpoint, next move, retry (R8, R9, R13b, R13c, R24, R36)

describe('close: checkpoint and the next move (R8, R9, R13b, R24, R36)', () => {
  const done = between({ checkpointed: true })
  const rows: readonly Row[] = [
    [
      'R36/R13b: a durable checkpoint schedules the next move',
      betweenTurns(),
      { type: 'checkpoint/done', activity: 1 },
      ['schedule advance#1'],
      { activity: done },
    ],
    [
      'R36: a failed checkpoint is reported, and the agent goes on',
      betweenTurns({}, { lastTurn: 2 }),
      { type: 'checkpoint/failed', activity: 1, error: boom },
      [live({ type: 'agent/error', turn: 2, step: 0, error: boom }), 'schedule advance#1'],
      { activity: done },
    ],
    [
      'R9: no waking item: idle',
      betweenTurns({ checkpointed: true }),
      { type: 'advance', activity: 1 },
      [live({ type: 'agent/status', status: 'idle' })],
      { activity: null, status: 'idle' },
    ],
    [
      'R8: parked items alone do not keep the driver running',
      betweenTurns({ checkpointed: true }, { queue: [q('p1', false)] }),
      { type: 'advance', activity: 1 },
      ['idle'],
      { activity: null, status: 'idle' },
    ],
    [
      'R13c: leftover steering does not wake the driver',
      betweenTurns({ checkpointed: true }, { outbox: [S('s1'), C('c1')] }),
      { type: 'advance', activity: 1 },
      ['idle'],
      { activity: null, status: 'idle' },
    ],
    [
      'R9: a waking item is claimed next, in the same running interval (no running published)',
      betweenTurns({ checkpointed: true }, { queue: [q('p1', false), q('m2')] }),
      { type: 'advance', activity: 1 },
      ['post claim/dequeue#2'],
      { activity: claim({ id: 2, turn: 2 }), nextActivity: 3, window: true },
    ],
    [
      'R24: a pending retry opens the retry turn before any waking item, with no settled or idle',
      betweenTurns({ checkpointed: true }, { retryPending: true, queue: [q('m2')] }),
      { type: 'advance', activity: 1 },
      [durable('turn/start', { turn: 2, trigger: { kind: 'retry' } }), 'step-hook#2(2.1)'],
      {
        activity: stepHook({ id: 2, turn: 2 }),
        nextActivity: 3,
        lastTurn: 2,
        retryPending: false,
        window: true,
      },
    ],
    [
      'R24: the retry turn takes the staged outbox as its inherited prefix',
      betweenTurns({ checkpointed: true }, { retryPending: true, outbox: [S('s1'), C('c1')] }),
      { type: 'advance', activity: 1 },
      ['turn/start(2,retry)', 'dequeue(s1)', 'steering(s1)', 'user(c1)', 'step-hook#2(2.1)'],
      {
        activity: stepHook({ id: 2, turn: 2 }),
        nextActivity: 3,
        lastTurn: 2,
        retryPending: false,
        window: true,
        outbox: [],
      },
    ],
    [
      'R29: while disposing, the next move finishes: staged context (V1), idle, finalize',
      betweenTurns({ checkpointed: true }, { disposal: 'disposing', outbox: [C('c1')] }),
      { type: 'advance', activity: 1 },
      ['user(c1)', 'idle', 'finalize'],
      { activity: null, status: 'idle', outbox: [], disposal: 'finalizing' },
    ],
    [
      'R24: retry() while idle opens a retry turn at once',
      idle(),
      { type: 'retry' },
      ['running', 'turn/start(1,retry)', 'step-hook#1(1.1)'],
      { status: 'running', window: true, lastTurn: 1, nextActivity: 2, activity: stepHook() },
    ],
    [
      'R24: retry() while idle runs before an already scheduled wake, with the staged outbox',
      idle({ queue: [q('m1')], wakeScheduled: true, outbox: [S('s0'), C('c0')] }),
      { type: 'retry' },
      ['running', 'turn/start(1,retry)', 'dequeue(s0)', 'steering(s0)', 'user(c0)', 'step-hook#1(1.1)'],
      { status: 'running', window: true, lastTurn: 1, nextActivity: 2, activity: stepHook(), outbox: [] },
    ],
    [
      'R24: retry() inside requestError marks one retry pending',
      turning({ phase: 'request-error', stepOpen: false, requestError: boom }),
      { type: 'retry' },
      [],
      { retryPending: true },
    ],
  ]
  it.each(rows)('%s', checkRow)

  const ignored: readonly IgnoredRow[] = [
    [
      'R36: a repeated checkpoint is ignored',
      betweenTurns({ checkpointed: true }),
      { type: 'checkpoint/done', activity: 1 },
    ],
    ['R36: a stale checkpoint is ignored', betweenTurns({ id: 2 }), { type: 'checkpoint/done', activity: 1 }],
    [
      'R36: a stale checkpoint failure is ignored',
      betweenTurns({ checkpointed: true }),
      { type: 'checkpoint/failed', activity: 1, error: boom },
    ],
    [
      'R13b: a stale advance is ignored',
      betweenTurns({ id: 2, checkpointed: true }),
      { type: 'advance', activity: 1 },
    ],
    ['R13b: an advance while a claim runs is ignored', claiming(), { type: 'advance', activity: 1 }],
    [
      'R24: repeat retry() calls inside requestError coalesce',
      turning({ phase: 'request-error', stepOpen: false, requestError: boom }, { retryPending: true }),
      { type: 'retry' },
    ],
    ['R24: retry() during a turn outside requestError is ignored', turning(), { type: 'retry' }],
    ['R24: retry() during an admission is ignored', claiming(deciding()), { type: 'retry' }],
    [
      'R24: retry() in requestError after a cancel is ignored',
      turning({
        phase: 'request-error',
        stepOpen: false,
        abort: { cause: { kind: 'user' }, keepInbox: false },
      }),
      { type: 'retry' },
    ],
    ['R29: retry() while disposing is ignored', idle({ disposal: 'finalizing' }), { type: 'retry' }],
  ]
  it.each(ignored)('%s', checkIgnored)
})

// ---------------------------------------------------------------------------------------------
// Cancellation and disposal (R25–R27, R29, V1)

const userAbort = { cause: { kind: 'user' }, keepInbox: false } as const
const keptAbort = { cause: { kind: 'user' }, keepInbox: true } as const
const disposedAbort = { cause: { kind: 'disposed' }, keepInbox: false } as const

describe('cancel: request, clear, abort (R25, R26)', () => {
  const rows: readonly Row[] = [
    [
      'R25: a cancel during a turn publishes cancel-requested first, then posts the clear',
      turning(),
      cancel('user'),
      [live({ type: 'agent/cancel-requested', cause: { kind: 'user' } }), 'post cancel/clear(user)'],
      {},
    ],
    [
      'R25: a cancel during an admission is effective',
      claiming(deciding()),
      cancel('parent', true),
      ['cancel(parent)', 'post cancel/clear(parent,keep)'],
      {},
    ],
    [
      'R25: an idle cancel without keepInbox is effective when items are queued (parked too)',
      idle({ queue: [q('p1', false)] }),
      cancel('user'),
      ['cancel(user)', 'post cancel/clear(user)'],
      {},
    ],
    [
      'R25: an idle cancel without keepInbox is effective when leftover steering is staged',
      idle({ outbox: [S('s1')] }),
      cancel('user'),
      ['cancel(user)', 'post cancel/clear(user)'],
      {},
    ],
    [
      'R25: a second cancel while the turn unwinds is still effective (the abort keeps the first cause)',
      turning({ abort: userAbort }),
      cancel('parent'),
      ['cancel(parent)', 'post cancel/clear(parent)'],
      {},
    ],
    [
      'R25: the clear discards queued items then steering (one discard), aborts, and schedules the unwind',
      turning({}, { queue: [q('m1'), q('p2', false)], outbox: [S('s1'), C('c1'), S('s2')] }),
      clear('user'),
      [
        live({ type: 'agent/inbox/discard', messages: [msg('m1'), msg('p2'), msg('s1'), msg('s2')] }),
        effect({ kind: 'abort', activity: 1, cause: { kind: 'user' } }),
        'schedule unwind#1',
      ],
      { queue: [], waking: 0, outbox: [C('c1')], activity: turn({ abort: userAbort }) },
    ],
    [
      'R26: with keepInbox nothing is discarded',
      turning({}, { queue: [q('m1')], outbox: [S('s1')] }),
      clear('user', true),
      ['abort#1(user)', 'schedule unwind#1'],
      { activity: turn({ abort: keptAbort }) },
    ],
    [
      'R25: the first cause wins: a later clear discards but does not abort again',
      turning({ abort: keptAbort }, { queue: [q('m2')] }),
      clear('parent'),
      ['discard(m2)'],
      { queue: [], waking: 0 },
    ],
    [
      'R13/R25: a cancel during admission aborts the claim',
      claiming(deciding()),
      clear('parent'),
      [effect({ kind: 'abort', activity: 1, cause: { kind: 'parent' } }), 'schedule unwind#1'],
      { activity: deciding({ abort: { cause: { kind: 'parent' }, keepInbox: false } }) },
    ],
    [
      'R25: an idle clear discards the queue',
      idle({ queue: [q('p1', false), q('m2')], wakeScheduled: true }),
      clear('user'),
      ['discard(p1,m2)'],
      { queue: [], waking: 0 },
    ],
    [
      'V1: an idle clear appends staged context at once, never drops it silently',
      idle({ outbox: [S('s1'), C('c1')] }),
      clear('user'),
      ['discard(s1)', durable('user/message', msg('c1'))],
      { outbox: [] },
    ],
    [
      'V1: a clear between turns (no turn open) appends staged context at once',
      betweenTurns({ checkpointed: true }, { queue: [q('m2')], outbox: [C('c1'), S('s1')] }),
      clear('user'),
      ['discard(m2,s1)', 'user(c1)'],
      { queue: [], waking: 0, outbox: [] },
    ],
  ]
  it.each(rows)('%s', checkRow)

  const ignored: readonly IgnoredRow[] = [
    ['R25: an idle cancel with nothing pending does nothing', idle(), cancel('user')],
    [
      'R25: an idle cancel with keepInbox does nothing, even with queued items',
      idle({ queue: [q('m1')], wakeScheduled: true }),
      cancel('user', true),
    ],
    ['R25: staged context alone is nothing to cancel', idle({ outbox: [C('c1')] }), cancel('user')],
    [
      'R25: a keepInbox cancel between turns does nothing',
      betweenTurns({}, { queue: [q('m2')] }),
      cancel('parent', true),
    ],
    [
      'R29: a cancel while disposing does nothing',
      turning({ abort: disposedAbort }, { disposal: 'disposing' }),
      cancel('user'),
    ],
    ['R25: a clear with nothing to do changes nothing', idle(), clear('user')],
    [
      'R26: a keepInbox clear of an already aborted turn changes nothing',
      turning({ abort: userAbort }),
      clear('parent', true),
    ],
  ]
  it.each(ignored)('%s', checkIgnored)
})

describe('cancel: unwind (R13, R25, R26, R29, V1)', () => {
  const unwind: Input = { type: 'unwind', activity: 1 }
  const closed = { window: false, activity: between() } as const
  const rows: readonly Row[] = [
    [
      'R25: the aborted turn closes its open step, ends aborted, settles aborted',
      turning({ abort: userAbort }),
      unwind,
      [
        'stop#1',
        'step/end(1.1)',
        durable('turn/end', { turn: 1, reason: { kind: 'aborted' } }),
        live({ type: 'agent/settled', turn: 1, reason: { kind: 'aborted' } }),
        'checkpoint#1',
      ],
      closed,
    ],
    [
      'R25: no step/end when no step is open',
      turning({ step: 2, phase: 'step-hook', stepOpen: false, abort: userAbort }),
      unwind,
      ['stop#1', 'turn/end(1,aborted)', 'settled(1,aborted)', 'checkpoint#1'],
      closed,
    ],
    [
      'V1: staged context is appended once turn/end is written (section 10 trace)',
      turning({ abort: userAbort }, { outbox: [C('c1')] }),
      unwind,
      ['stop#1', 'step/end(1.1)', 'turn/end(1,aborted)', 'user(c1)', 'settled(1,aborted)', 'checkpoint#1'],
      { ...closed, outbox: [] },
    ],
    [
      'R26: with keepInbox the staged outbox stays for the next turn',
      turning({ abort: keptAbort }, { outbox: [S('s1'), C('c1')], queue: [q('m2')] }),
      unwind,
      ['stop#1', 'step/end(1.1)', 'turn/end(1,aborted)', 'settled(1,aborted)', 'checkpoint#1'],
      closed,
    ],
    [
      'R26: with keepInbox staged context alone stays too',
      turning({ abort: keptAbort }, { outbox: [C('c1')] }),
      unwind,
      ['stop#1', 'step/end(1.1)', 'turn/end(1,aborted)', 'settled(1,aborted)', 'checkpoint#1'],
      closed,
    ],
    [
      'R29: a turn aborted by dispose() ends disposed and settles aborted',
      turning({ abort: disposedAbort }, { disposal: 'disposing' }),
      unwind,
      ['stop#1', 'step/end(1.1)', 'turn/end(1,disposed)', 'settled(1,aborted)', 'checkpoint#1'],
      closed,
    ],
    [
      'R13/R14: an aborted claim is a rejected admission',
      claiming({ abort: userAbort }, { queue: [q('m1')] }),
      unwind,
      ['stop#1', 'schedule advance#1'],
      { window: false, activity: between({ checkpointed: true }) },
    ],
    [
      'R13: an aborted admission appends a context-only outbox',
      claiming(deciding({ abort: userAbort }), { outbox: [C('c1')] }),
      unwind,
      ['stop#1', 'user(c1)', 'schedule advance#1'],
      { window: false, activity: between({ checkpointed: true }), outbox: [] },
    ],
  ]
  it.each(rows)('%s', checkRow)

  const ignored: readonly IgnoredRow[] = [
    ['R25: an unwind of a turn that was not aborted is ignored', turning(), unwind],
    ['R25: a stale unwind is ignored', turning({ id: 2, abort: userAbort }), unwind],
    ['R25: an unwind after the turn ended is ignored', betweenTurns(), unwind],
  ]
  it.each(ignored)('%s', checkIgnored)

  it('R25: unwinding during a tool batch records a result for every call left, before step/end', () => {
    const calls = [call('c1'), call('c2', 'write')]
    const before = turning({
      phase: 'tools',
      toolResults: 1,
      draft: draft({ content: calls, toolCalls: calls, finish: 'tool-calls' }),
      abort: userAbort,
    })
    // c1 was recorded before the abort; c2 never delivered a result.
    expect(fold(before, [unwind]).out.map(show)).toStrictEqual([
      'stop#1',
      'tool/call(write)',
      'tool/result(c2,ABORTED_BEFORE_DISPATCH)',
      'step/end(1.1)',
      'turn/end(1,aborted)',
      'settled(1,aborted)',
      'checkpoint#1',
    ])
  })

  it('R25: a started tool without a result is ABORTED; a call never dispatched is ABORTED_BEFORE_DISPATCH', () => {
    const calls = [call('c1'), call('c2', 'write')]
    const before = turning({
      phase: 'tools',
      draft: draft({ content: calls, toolCalls: calls, finish: 'tool-calls' }),
    })
    const started: Input = { type: 'tool/started', activity: 1, step: 1, index: 0 }
    const labels = fold(before, [started, clear('user'), unwind]).out.map(show)
    expect(labels.filter((l) => l.startsWith('tool/'))).toStrictEqual([
      'tool/call(read)',
      'tool/result(c1,ABORTED)',
      'tool/call(write)',
      'tool/result(c2,ABORTED_BEFORE_DISPATCH)',
    ])
  })

  it('R25: a value a started tool delivered before the unwind is its tool/result', () => {
    const calls = [call('c1'), call('c2', 'write')]
    const before = turning({
      phase: 'tools',
      draft: draft({ content: calls, toolCalls: calls, finish: 'tool-calls' }),
      abort: userAbort,
    })
    const labels = fold(before, [result(0, 'c1'), unwind]).out.map(show)
    expect(labels.filter((l) => l.startsWith('tool/'))).toStrictEqual([
      'tool/call(read)',
      'tool/result(c1)',
      'tool/call(write)',
      'tool/result(c2,ABORTED_BEFORE_DISPATCH)',
    ])
    expect(labels.slice(-4)).toStrictEqual([
      'step/end(1.1)',
      'turn/end(1,aborted)',
      'settled(1,aborted)',
      'checkpoint#1',
    ])
  })
})

describe('dispose and finalize (R29, V1)', () => {
  const rows: readonly Row[] = [
    [
      'R29: an idle dispose finalizes at once (no cancel-requested)',
      idle(),
      { type: 'dispose' },
      ['finalize'],
      { disposal: 'finalizing' },
    ],
    [
      'R29/V1: an idle dispose discards the queue, appends staged context, and cancels the wake',
      idle({ queue: [q('m1'), q('p2', false)], wakeScheduled: true, outbox: [S('s1'), C('c1')] }),
      { type: 'dispose' },
      ['discard(m1,p2,s1)', 'user(c1)', 'finalize'],
      { queue: [], waking: 0, wakeScheduled: false, outbox: [], disposal: 'finalizing' },
    ],
    [
      'R29: dispose during a turn discards, then aborts with the internal cause',
      turning({}, { queue: [q('m2')], outbox: [S('s1'), C('c1')] }),
      { type: 'dispose' },
      [
        'discard(m2,s1)',
        effect({ kind: 'abort', activity: 1, cause: { kind: 'disposed' } }),
        'schedule unwind#1',
      ],
      {
        queue: [],
        waking: 0,
        outbox: [C('c1')],
        disposal: 'disposing',
        activity: turn({ abort: disposedAbort }),
      },
    ],
    [
      'R29: a user cancel that came first keeps its cause (the turn ends aborted)',
      turning({ abort: keptAbort }),
      { type: 'dispose' },
      [],
      { disposal: 'disposing' },
    ],
    [
      'R29: dispose during an admission aborts the claim',
      claiming(deciding()),
      { type: 'dispose' },
      ['abort#1(disposed)', 'schedule unwind#1'],
      { disposal: 'disposing', activity: deciding({ abort: disposedAbort }) },
    ],
    [
      'R29: dispose between turns waits for the scheduled next move',
      betweenTurns({}, { queue: [q('m2')] }),
      { type: 'dispose' },
      ['discard(m2)'],
      { queue: [], waking: 0, disposal: 'disposing' },
    ],
    [
      'R29: finalized completes the streams',
      idle({ disposal: 'finalizing' }),
      { type: 'finalized' },
      ['complete'],
      { disposal: 'disposed' },
    ],
  ]
  it.each(rows)('%s', checkRow)

  const ignored: readonly IgnoredRow[] = [
    [
      'R29: dispose() is idempotent',
      turning({ abort: disposedAbort }, { disposal: 'disposing' }),
      { type: 'dispose' },
    ],
    ['R29: dispose() after it finished is ignored', idle({ disposal: 'disposed' }), { type: 'dispose' }],
    ['R29: finalized before finalizing is ignored', idle({ disposal: 'disposing' }), { type: 'finalized' }],
    ['R29: a repeated finalized is ignored', idle({ disposal: 'disposed' }), { type: 'finalized' }],
  ]
  it.each(ignored)('%s', checkIgnored)
})

// ---------------------------------------------------------------------------------------------
// Short runs through the reducer with a minimal effect runner

describe('runs (R8, R9, R24, R26, R27)', () => {
  const pick = (labels: readonly string[]) =>
    labels.filter((l) => /^(running|idle|dequeue|discard|turn\/start|turn\/end|settled)/.test(l))

  it('R8/R9: the driver claims parked items ahead of the last waking one, then idles, in one running interval', () => {
    const start = idle({ queue: [q('m1'), q('p2', false), q('m3'), q('p4', false)], wakeScheduled: true })
    const { state, labels } = simulate(start, [{ type: 'wake' }])
    expect(pick(labels)).toStrictEqual([
      'running',
      'dequeue(m1)',
      'turn/start(1)',
      'turn/end(1,completed)',
      'settled(1,completed)',
      'dequeue(p2)',
      'turn/start(2)',
      'turn/end(2,completed)',
      'settled(2,completed)',
      'dequeue(m3)',
      'turn/start(3)',
      'turn/end(3,completed)',
      'settled(3,completed)',
      'idle',
    ])
    expect(fifoToArray(state.queue)).toStrictEqual([q('p4', false)])
    expect(state.waking).toBe(0)
  })

  it('R26/R27: after a keepInbox cancel, queued work runs next with no idle between', () => {
    const start = turning({}, { queue: [q('m2')], outbox: [S('s1')] })
    const { labels } = simulate(start, [cancel('user', true), followup('m3')])
    expect(pick(labels)).toStrictEqual([
      'turn/end(1,aborted)',
      'settled(1,aborted)',
      'dequeue(m2)',
      'turn/start(2)',
      'dequeue(s1)',
      'turn/end(2,completed)',
      'settled(2,completed)',
      'dequeue(m3)',
      'turn/start(3)',
      'turn/end(3,completed)',
      'settled(3,completed)',
      'idle',
    ])
  })

  it('R27: a send accepted after the clear survives it', () => {
    const start = turning({}, { queue: [q('m2')] })
    const { labels } = simulate(start, [cancel('user'), followup('m3')])
    expect(pick(labels)).toStrictEqual([
      'discard(m2)',
      'turn/end(1,aborted)',
      'settled(1,aborted)',
      'dequeue(m3)',
      'turn/start(2)',
      'turn/end(2,completed)',
      'settled(2,completed)',
      'idle',
    ])
  })

  it('R24/R25: a cancel after retry() inside requestError ends the chain: no retry turn after settled', () => {
    const start = turning(
      { phase: 'request-error', stepOpen: false, requestError: boom },
      { retryPending: true },
    )
    const { state, labels } = simulate(start, [cancel('user')])
    expect(pick(labels)).toStrictEqual(['turn/end(1,aborted)', 'settled(1,aborted)', 'idle'])
    expect(state.retryPending).toBe(false)
  })
})
