/**
 * Test support for the table tests of the pure reducer (`accept.test.ts`, `claim.test.ts`,
 * `step.test.ts`, `toolStep.test.ts`, `close.test.ts`, `cancel.test.ts`, `reduce.test.ts`). Not
 * imported by library code.
 *
 * Every row starts from a deep-frozen state built over `initialState('a')` and feeds one
 * deep-frozen input, so a handler that mutated anything would throw. Outputs are compared as
 * compact labels (the `label()` of `steerable/testing` for events, a short form for effects) or,
 * where the payload matters, as exact `Output` objects. Ignored inputs must return the very same
 * state object and no output.
 */
import { expect } from 'vitest'
import type { SessionEvent } from '../../src/contracts/events.js'
import type {
  AgentMessage,
  AgentMessageId,
  MessageSource,
  ToolCallBlock,
} from '../../src/contracts/messages.js'
import {
  type Between,
  type Claim,
  EMPTY_DRAFT,
  type StepDraft,
  type Turn,
} from '../../src/machine/activity.js'
import type { Effect } from '../../src/machine/effects.js'
import { emptyFifo, type Fifo, fifoPush, fifoToArray } from '../../src/machine/fifo.js'
import type { Input, Signal } from '../../src/machine/inputs.js'
import type { OutboxEntry } from '../../src/machine/outboxEntry.js'
import type { Output } from '../../src/machine/outputs.js'
import { type ClaimedItem, itemWakes, type QueuedItem } from '../../src/machine/queuedItem.js'
import { reduce } from '../../src/machine/reduce.js'
import { type DeliveryState, initialState } from '../../src/machine/state.js'
import { NO_USAGE } from '../../src/machine/usageFold.js'
import { label } from '../../src/testing/label.js'

// ---------------------------------------------------------------------------------------------
// Fixtures

export const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}

export const USER: MessageSource = { kind: 'user' }
export const PLUGIN: MessageSource = { kind: 'plugin', plugin: 'p' }

/** A message whose text is its id, so labels name it: `enqueue(m1,queued)`, `user(m1)`. */
export const msg = (id: string, source: MessageSource = USER): AgentMessage =>
  deepFreeze({ id: id as AgentMessageId, content: [{ type: 'text', text: id }], source })
export const q = (id: string, wakeup = true): ClaimedItem =>
  wakeup ? msg(id) : deepFreeze({ parked: msg(id) })
/**
 * A string send as the queue keeps it, `{id, text}` (its message is `msg(id)`;
 * docs/performance.md#compact-queued-text).
 */
export const qt = (id: string): QueuedItem => deepFreeze({ id: id as AgentMessageId, text: id })
export const S = (id: string): OutboxEntry => deepFreeze({ kind: 'steering', message: msg(id) })
export const C = (id: string): OutboxEntry => deepFreeze({ kind: 'context', data: msg(id) })

type Patch = {
  readonly [K in keyof DeliveryState]?: K extends 'queue' ? readonly QueuedItem[] : DeliveryState[K]
}

/** A frozen state: `initialState('a')` with a patch; `waking` follows the queue unless given. */
export const make = (patch: Patch = {}): DeliveryState => {
  const { queue = [], ...rest } = patch
  const fifo = queue.reduce<Fifo<QueuedItem>>((f, item) => fifoPush(f, item), emptyFifo())
  return deepFreeze({
    ...initialState('a'),
    waking: queue.filter(itemWakes).length,
    ...rest,
    queue: fifo,
  })
}
export const claim = (patch: Partial<Claim> = {}): Claim => ({
  kind: 'claim',
  id: 1,
  turn: 1,
  inherited: 0,
  phase: 'opening',
  ...patch,
})
export const turn = (patch: Partial<Turn> = {}): Turn => ({
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
export const between = (patch: Partial<Between> = {}): Between => ({
  kind: 'between',
  id: 1,
  checkpointed: false,
  ...patch,
})
/** A fresh step, as `beginStep` opens it. */
export const stepHook = (patch: Partial<Turn> = {}): Turn =>
  turn({ phase: 'step-hook', stepOpen: false, ...patch })

export const idle = (patch: Patch = {}) => make(patch)
export const claiming = (c: Partial<Claim> = {}, patch: Patch = {}) =>
  make({ status: 'running', window: true, activity: claim(c), nextActivity: 2, ...patch })
export const turning = (t: Partial<Turn> = {}, patch: Patch = {}) =>
  make({ status: 'running', window: true, lastTurn: 1, activity: turn(t), nextActivity: 2, ...patch })
export const betweenTurns = (b: Partial<Between> = {}, patch: Patch = {}) =>
  make({ status: 'running', lastTurn: 1, activity: between(b), nextActivity: 2, ...patch })

export const queueSend = (
  id: string,
  target: 'next-turn' | 'next-step',
  wakeup: boolean,
  source = USER,
): Input => ({
  type: 'queue',
  message: msg(id, source),
  target,
  wakeup,
})
export const followup = (id: string) => queueSend(id, 'next-turn', true)
/** `followup(id)` given as the string shorthand (the text is the id, as in `msg`). */
export const textFollowup = (id: string): Input =>
  ({ ...queueSend(id, 'next-turn', true), text: id }) as Input
export const parked = (id: string) => queueSend(id, 'next-turn', false)
export const steer = (id: string, source = USER) => queueSend(id, 'next-step', true, source)
export const inject = (id: string): Input => ({ type: 'inject', message: msg(id) })
export const cancel = (kind: 'user' | 'parent', keepInbox = false): Input => ({
  type: 'cancel',
  cause: { kind },
  keepInbox,
})
export const clear = (kind: 'user' | 'parent', keepInbox = false): Input => ({
  type: 'cancel/clear',
  cause: { kind },
  keepInbox,
})

export const call = (id: string, name = 'read'): ToolCallBlock => ({
  type: 'tool-call',
  id,
  name,
  arguments: '{}',
})
export const draft = (patch: Partial<StepDraft>): StepDraft => ({ ...EMPTY_DRAFT, ...patch })
export const text = (t: string) => ({ type: 'text' as const, text: t })
export const boom = new Error('boom')

// ---------------------------------------------------------------------------------------------
// Output labels

const signalLabel = (s: Signal): string => {
  if (s.type === 'cancel/clear')
    return `cancel/clear(${s.cause.kind}${s.keepInbox ? ',keep' : ''}${s.requeue ? ',requeue' : ''})`
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
      return `tools#${e.activity}(${e.turn}.${e.step},${e.calls.map((c) => c.id).join(',')}${e.only ? `;only ${e.only.join(',')}` : ''})`
    case 'approval-timer':
      return `approval-timer#${e.activity}(${e.step}.${e.index})`
    case 'cut':
      return `cut#${e.activity}(${e.step})`
    case 'cancel-call':
      return `cancel-call#${e.activity}(${e.step}.${e.index})`
    case 'summarize':
      return `summarize#${e.activity}(keep ${e.keepLastTurns})`
    case 'timer':
      return `timer#${e.activity}(${e.ms} ${signalLabel(e.input)})`
    case 'close-store':
    case 'complete':
    case 'persist':
      return e.kind
  }
}

export const show = (o: Output): string => {
  if (o.kind === 'live') return label(o.event)
  if (o.kind === 'durable') return label({ seq: 0, ...o.draft } as SessionEvent)
  // A fate no event shows: `settle(m1,blocked)`; a journal record: `journal(add m1)`.
  if (o.kind === 'settle') return `settle(${o.id},${o.outcome.kind})`
  if (o.kind === 'journal')
    return `journal(${o.record.op} ${'id' in o.record ? o.record.id : o.record.message.id})`
  return effectLabel(o.effect)
}

/** A label, or an exact `Output` where the payload matters. */
export type Expected = string | Output

export const live = (event: Record<string, unknown>): Output =>
  ({ kind: 'live', event: { ...event, agentId: 'a' } }) as Output
export const durable = (type: string, data: unknown): Output =>
  ({ kind: 'durable', draft: { type, data } }) as Output
export const effect = (e: Effect): Output => ({ kind: 'effect', effect: e })

/**
 * The state as compared by the tables: the queue as an array (equal queues compare equal whatever
 * their internal shape); a key whose value is `undefined` counts as absent (the reducer's copies
 * list every key, see copy.ts), here and in the activity and its draft; on the activity, so does
 * a bookkeeping list that is empty.
 */
const view = (s: DeliveryState) => normalized({ ...s, queue: fifoToArray(s.queue) })

const normalized = (o: Record<string, unknown>) =>
  definedOnly({ ...o, activity: o.activity && activityView(o.activity) })

const activityView = (a: object) => {
  const kept = definedOnly(a, (v) => !(Array.isArray(v) && v.length === 0))
  return kept.draft ? { ...kept, draft: definedOnly(kept.draft as object) } : kept
}

const definedOnly = (o: object, keep: (v: unknown) => boolean = () => true) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && keep(v)))

export type Row = readonly [
  name: string,
  before: DeliveryState,
  input: Input,
  out: readonly Expected[],
  after: Patch,
]
export type IgnoredRow = readonly [name: string, before: DeliveryState, input: Input]

/**
 * The usage is the fold of the durable events written (`usageFold.ts`, its own table): a row
 * compares it when it names it, so the rows of other rules need not restate each `step/start`.
 */
const compared = (state: DeliveryState, after: Patch) =>
  'usage' in after ? view(state) : view({ ...state, usage: NO_USAGE })

export const checkRow = (...[, before, input, out, after]: Row): void => {
  const result = reduce(before, deepFreeze(input))
  const actual = result.out.map((o, i) => (typeof out[i] === 'object' ? o : show(o)))
  expect(actual).toStrictEqual(out)
  expect(compared(result.state, after)).toStrictEqual(normalized({ ...compared(before, after), ...after }))
}

/** Like `Row`, over several inputs folded in order (each deep-frozen, as is each state between). */
export type FoldRow = readonly [
  name: string,
  before: DeliveryState,
  inputs: readonly Input[],
  out: readonly Expected[],
  after: Patch,
]

export const checkFold = (...[, before, inputs, out, after]: FoldRow): void => {
  const result = fold(before, inputs)
  const actual = result.out.map((o, i) => (typeof out[i] === 'object' ? o : show(o)))
  expect(actual).toStrictEqual(out)
  expect(compared(result.state, after)).toStrictEqual(normalized({ ...compared(before, after), ...after }))
}

export const checkIgnored = (...[, before, input]: IgnoredRow): void => {
  const result = reduce(before, deepFreeze(input))
  expect(result.out).toStrictEqual([])
  expect(result.state).toBe(before)
}
// ---------------------------------------------------------------------------------------------
// Inputs and folds shared by several handler groups

export const deciding = (patch: Partial<Claim> = {}) => claim({ phase: 'deciding', item: q('m1'), ...patch })
export const modelEvent = (event: Extract<Input, { type: 'model/event' }>['event'], step = 1): Input => ({
  type: 'model/event',
  activity: 1,
  step,
  event,
})
export const complete = (step = 1): Input => ({ type: 'model/complete', activity: 1, step })
export const result = (index: number, id: string, concluded = false): Input => ({
  type: 'tool/result',
  activity: 1,
  step: 1,
  index,
  result: { type: 'tool-result', toolCallId: id, content: [text('ok')] },
  concluded,
})

/** Folds several inputs; returns every output label and the final state. */
export const fold = (before: DeliveryState, inputs: readonly Input[]) => {
  let state = before
  const out: Output[] = []
  for (const input of inputs) {
    const r = reduce(state, deepFreeze(input))
    state = deepFreeze(r.state)
    out.push(...r.out)
  }
  return { state, out }
}
