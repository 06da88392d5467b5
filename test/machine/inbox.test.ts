/**
 * Table tests of inbox control in the reducer (R43–R47, R49, R50): `inbox.ts` (remove, replace,
 * move, promote), the interrupting send and the turn guard of `accept.ts`, and what `admission.ts`,
 * `cancel.ts` and `turnEnd.ts` do for them (requeue, expiry).
 */
import { describe, it } from 'vitest'
import type { InboxRecord } from '../../src/contracts/inbox.js'
import type { AgentMessage, AgentMessageId, MessageSource } from '../../src/contracts/messages.js'
import type { Abort } from '../../src/machine/activity.js'
import type { Input } from '../../src/machine/inputs.js'
import type { OutboxEntry } from '../../src/machine/outboxEntry.js'
import type { Output } from '../../src/machine/outputs.js'
import {
  between,
  betweenTurns,
  boom,
  C,
  checkFold,
  checkIgnored,
  checkRow,
  claim,
  claiming,
  clear,
  deciding,
  deepFreeze,
  effect,
  type FoldRow,
  followup,
  type IgnoredRow,
  idle,
  inject,
  live,
  msg,
  PLUGIN,
  parked,
  q,
  qt,
  type Row,
  S,
  steer,
  stepHook,
  turn,
  turning,
  USER,
} from '../support/machineFixtures.js'

// ---------------------------------------------------------------------------------------------
// Inputs and values of this file

const id = (s: string) => s as AgentMessageId
/** The message `id` with new content (and source): what `replace(id, text)` hands in. */
const edited = (s: string, text: string, source: MessageSource = USER): AgentMessage =>
  deepFreeze({ id: id(s), content: [{ type: 'text', text }], source })
/** Steering guarded for `turn` (R49). */
const G = (s: string, turn: number): OutboxEntry =>
  deepFreeze({ kind: 'steering', message: msg(s), guard: turn })

const remove = (s: string): Input => ({ type: 'remove', id: id(s) })
const replace = (message: AgentMessage): Input => ({ type: 'replace', message })
const move = (s: string, index: number): Input => ({ type: 'move', id: id(s), index })
const promote = (s: string): Input => ({ type: 'promote', id: id(s) })
/** `followup(s, {ifBusy: 'interrupt'})` (R47). */
const interrupt = (s: string): Input => ({ ...followup(s), interrupt: true }) as Input
/** `steer(s, {turn})` (R49). */
const guarded = (s: string, turn: number): Input => ({ ...steer(s), turn }) as Input
const unwind: Input = { type: 'unwind', activity: 1 }
const blocked: Input = { type: 'admission/blocked', activity: 1, reason: 'no' }
const allowed: Input = { type: 'admission/allowed', activity: 1, admission: { additionalContexts: [] } }

const discarded = (ids: readonly string[], reason: string): Output =>
  live({ type: 'agent/inbox/discard', messages: ids.map((s) => msg(s)), reason })
const reorder = (...ids: string[]): Output => live({ type: 'agent/inbox/reorder', ids })
const journal = (record: InboxRecord): Output => ({ kind: 'journal', record })
const settled = (s: string, reason: 'cancel' | 'dispose' | 'removed' | 'expired'): InboxRecord => ({
  op: 'settle',
  id: id(s),
  outcome: { kind: 'discarded', reason },
})

/** The abort an interrupting send sets (R47): the user's cancel, keeping the inbox, requeueing. */
const requeueAbort: Abort = { cause: { kind: 'user' }, keepInbox: true, requeue: true }
const keptAbort: Abort = { cause: { kind: 'user' }, keepInbox: true }
/** A rejected admission: the window closed, the next move scheduled (R13, R13b). */
const rejected = { window: false, activity: between({ checkpointed: true }) } as const
/** A turn that ended (R19): the window closed, its checkpoint pending. */
const ended = { window: false, activity: between() } as const
const J = { journaling: true } as const

// ---------------------------------------------------------------------------------------------
// R43: remove

describe('remove (R43)', () => {
  const rows: readonly Row[] = [
    [
      'R43: a queued item is discarded with reason removed; the rest keeps its order',
      turning({}, { queue: [q('m1'), q('m2'), q('m3')] }),
      remove('m2'),
      [discarded(['m2'], 'removed')],
      { queue: [q('m1'), q('m3')], waking: 2 },
    ],
    [
      'R43: a compact {id, text} item is discarded as its whole message',
      turning({}, { queue: [qt('m1')] }),
      remove('m1'),
      [discarded(['m1'], 'removed')],
      { queue: [], waking: 0 },
    ],
    [
      'R43, R8: a parked item is discarded; the waking count is unchanged',
      idle({ queue: [q('p1', false), q('m2')], wakeScheduled: true }),
      remove('p1'),
      ['discard:removed(p1)'],
      { queue: [q('m2')] },
    ],
    [
      'R43: staged steering is discarded; the context around it stays, in order',
      turning({}, { outbox: [C('c0'), S('s1'), C('c1')] }),
      remove('s1'),
      [discarded(['s1'], 'removed')],
      { outbox: [C('c0'), C('c1')] },
    ],
    [
      'R43, R49: guarded steering is removed like any steering',
      turning({}, { outbox: [G('s1', 1)] }),
      remove('s1'),
      ['discard:removed(s1)'],
      { outbox: [] },
    ],
    [
      'R43, V8: staged context is dropped without an event; only its outcome settles',
      turning({}, { outbox: [S('s1'), C('c1')] }),
      remove('c1'),
      [{ kind: 'settle', id: id('c1'), outcome: { kind: 'discarded', reason: 'removed' } }],
      { outbox: [S('s1')] },
    ],
    [
      'R43, R41: while a claim opens, an item behind the head it is dequeuing still waits',
      claiming({}, { queue: [q('m1'), q('m2')] }),
      remove('m2'),
      ['discard:removed(m2)'],
      { queue: [q('m1')], waking: 1 },
    ],
  ]
  it.each(rows)('%s', checkRow)

  const folds: readonly FoldRow[] = [
    [
      'R43, R28: removing the only waking item leaves the scheduled wake, which then claims nothing',
      idle({ queue: [q('m1'), q('p2', false)], wakeScheduled: true }),
      [remove('m1'), { type: 'wake' }],
      ['discard:removed(m1)'],
      { queue: [q('p2', false)], waking: 0, wakeScheduled: false },
    ],
  ]
  it.each(folds)('%s', checkFold)

  const ignored: readonly IgnoredRow[] = [
    [
      'R43: the head a claim is dequeuing is not waiting (cancel instead)',
      claiming({}, { queue: [q('m1'), q('m2')] }),
      remove('m1'),
    ],
    [
      'R43: the prompt being admitted is not waiting',
      claiming(deciding(), { queue: [q('m2')] }),
      remove('m1'),
    ],
    ['R43: an unknown id', turning({}, { queue: [q('m1')], outbox: [S('s1'), C('c1')] }), remove('nobody')],
  ]
  it.each(ignored)('%s', checkIgnored)
})

// ---------------------------------------------------------------------------------------------
// R44: replace

describe('replace (R44)', () => {
  const rows: readonly Row[] = [
    [
      'R44: a queued item keeps its id and its position; replace carries the new message',
      turning({}, { queue: [q('m1'), q('m2'), q('m3')] }),
      replace(edited('m2', 'M2!')),
      [live({ type: 'agent/inbox/replace', message: edited('m2', 'M2!') })],
      { queue: [q('m1'), edited('m2', 'M2!'), q('m3')] },
    ],
    [
      'R44: a compact {id, text} item becomes the new whole message, still waking',
      turning({}, { queue: [qt('m1')] }),
      replace(edited('m1', 'M1!')),
      ['replace(M1!)'],
      { queue: [edited('m1', 'M1!')], waking: 1 },
    ],
    [
      'R44, R8: a parked item stays parked with its new content and source; nothing wakes',
      idle({ queue: [q('p1', false), q('p2', false)] }),
      replace(edited('p1', 'P1!', PLUGIN)),
      [live({ type: 'agent/inbox/replace', message: edited('p1', 'P1!', PLUGIN) })],
      { queue: [{ parked: edited('p1', 'P1!', PLUGIN) }, q('p2', false)], waking: 0 },
    ],
    [
      'R44, R49: steering keeps its place and its turn guard',
      turning({}, { outbox: [C('c0'), G('s1', 1), S('s2')] }),
      replace(edited('s1', 'S1!')),
      [live({ type: 'agent/inbox/replace', message: edited('s1', 'S1!') })],
      { outbox: [C('c0'), { kind: 'steering', message: edited('s1', 'S1!'), guard: 1 }, S('s2')] },
    ],
    [
      'R44: unguarded steering stays unguarded',
      turning({}, { outbox: [S('s1')] }),
      replace(edited('s1', 'S1!')),
      ['replace(S1!)'],
      { outbox: [{ kind: 'steering', message: edited('s1', 'S1!') }] },
    ],
    [
      'R44: staged context changes in place without an event',
      turning({}, { outbox: [C('c1'), S('s1')] }),
      replace(edited('c1', 'C1!', PLUGIN)),
      [],
      { outbox: [{ kind: 'context', data: edited('c1', 'C1!', PLUGIN) }, S('s1')] },
    ],
    [
      'R44, R41: while a claim opens, an item behind the head can be replaced',
      claiming({}, { queue: [q('m1'), q('m2')] }),
      replace(edited('m2', 'M2!')),
      ['replace(M2!)'],
      { queue: [q('m1'), edited('m2', 'M2!')] },
    ],
  ]
  it.each(rows)('%s', checkRow)

  const folds: readonly FoldRow[] = [
    [
      'R44, R6: replaced before the wake claims it, the new text is what the claim dequeues and submits',
      idle({ queue: [q('m1')], wakeScheduled: true }),
      [
        replace(edited('m1', 'M1!')),
        { type: 'wake' },
        { type: 'claim/dequeue', activity: 1 },
        { type: 'claim/submit', activity: 1 },
      ],
      [
        'replace(M1!)',
        'running',
        'post claim/dequeue#1',
        live({ type: 'agent/inbox/dequeue', message: edited('m1', 'M1!') }),
        'post claim/submit#1',
        effect({ kind: 'prompt-submit', activity: 1, content: edited('m1', 'M1!').content, source: USER }),
      ],
      {
        queue: [],
        waking: 0,
        wakeScheduled: false,
        status: 'running',
        window: true,
        nextActivity: 2,
        activity: claim({ phase: 'deciding', item: edited('m1', 'M1!') }),
      },
    ],
  ]
  it.each(folds)('%s', checkFold)

  const ignored: readonly IgnoredRow[] = [
    [
      'R44: the head a claim is dequeuing is not waiting',
      claiming({}, { queue: [q('m1'), q('m2')] }),
      replace(edited('m1', 'M1!')),
    ],
    [
      'R44: the prompt being admitted is not waiting',
      claiming(deciding(), { queue: [q('m2')] }),
      replace(edited('m1', 'M1!')),
    ],
    ['R44: an unknown id', turning({}, { queue: [q('m1')], outbox: [S('s1')] }), replace(edited('x', 'X'))],
  ]
  it.each(ignored)('%s', checkIgnored)
})

// ---------------------------------------------------------------------------------------------
// R45: move

describe('move (R45)', () => {
  const abc = turning({}, { queue: [q('a'), q('b'), q('c')] })
  const rows: readonly Row[] = [
    [
      'R45: to the head; reorder names the queue in its new order',
      abc,
      move('c', 0),
      [reorder('c', 'a', 'b')],
      { queue: [q('c'), q('a'), q('b')] },
    ],
    [
      'R45: index is the position in the resulting queue (moving back by one)',
      abc,
      move('a', 1),
      [reorder('b', 'a', 'c')],
      { queue: [q('b'), q('a'), q('c')] },
    ],
    [
      'R45: an index past the end is clamped to the last place',
      abc,
      move('a', 99),
      [reorder('b', 'c', 'a')],
      {
        queue: [q('b'), q('c'), q('a')],
      },
    ],
    [
      'R45: a negative index is clamped to the head',
      abc,
      move('c', -5),
      [reorder('c', 'a', 'b')],
      {
        queue: [q('c'), q('a'), q('b')],
      },
    ],
    [
      'R45, R8: a parked item moves and stays parked; the waking count is unchanged',
      idle({ queue: [q('p1', false), q('m2')], wakeScheduled: true }),
      move('p1', 1),
      [reorder('m2', 'p1')],
      { queue: [q('m2'), q('p1', false)] },
    ],
    [
      'R45: a compact {id, text} item moves as it is',
      turning({}, { queue: [qt('a'), q('b')] }),
      move('a', 1),
      [reorder('b', 'a')],
      { queue: [q('b'), qt('a')] },
    ],
    [
      'R45, R41: while a claim opens, nothing moves ahead of the head it is dequeuing (index 0 is 1)',
      claiming({}, { queue: [q('m1'), q('m2'), q('m3')] }),
      move('m3', 0),
      [reorder('m1', 'm3', 'm2')],
      { queue: [q('m1'), q('m3'), q('m2')] },
    ],
  ]
  it.each(rows)('%s', checkRow)

  const ignored: readonly IgnoredRow[] = [
    ['R45: no event when the item stays where it is', abc, move('b', 1)],
    ['R45: no event when the clamped index is where it is', abc, move('c', 99)],
    [
      'R45: steering is not reordered',
      turning({}, { queue: [q('a')], outbox: [S('s1'), S('s2')] }),
      move('s2', 0),
    ],
    ['R45: context is not reordered', turning({}, { outbox: [C('c1'), C('c2')] }), move('c2', 0)],
    ['R45: an unknown id', abc, move('nobody', 0)],
    [
      'R45: the head a claim is dequeuing is not waiting',
      claiming({}, { queue: [q('m1'), q('m2')] }),
      move('m1', 1),
    ],
  ]
  it.each(ignored)('%s', checkIgnored)
})

// ---------------------------------------------------------------------------------------------
// R46: promote

describe('promote (R46)', () => {
  const rows: readonly Row[] = [
    [
      'R46: during a turn a queued item leaves the queue and becomes steering: dequeue, then enqueue(steering)',
      turning({}, { queue: [q('m1'), q('m2')], outbox: [C('c0')] }),
      promote('m2'),
      [
        live({ type: 'agent/inbox/dequeue', message: msg('m2') }),
        live({ type: 'agent/inbox/enqueue', message: msg('m2'), placement: 'steering' }),
      ],
      { queue: [q('m1')], waking: 1, outbox: [C('c0'), S('m2')] },
    ],
    [
      'R46, R8: a parked item becomes steering too; the waking count is unchanged',
      turning({}, { queue: [q('p1', false), q('m2')] }),
      promote('p1'),
      ['dequeue(p1)', 'enqueue(p1,steering)'],
      { queue: [q('m2')], waking: 1, outbox: [S('p1')] },
    ],
    [
      'R46: a compact {id, text} item becomes steering as its whole message',
      turning({}, { queue: [qt('m1')] }),
      promote('m1'),
      [
        live({ type: 'agent/inbox/dequeue', message: msg('m1') }),
        live({ type: 'agent/inbox/enqueue', message: msg('m1'), placement: 'steering' }),
      ],
      { queue: [], waking: 0, outbox: [S('m1')] },
    ],
    [
      'R46, R11: during an admission it becomes steering of that admission (never through promptSubmit)',
      claiming(deciding(), { queue: [q('m2')] }),
      promote('m2'),
      ['dequeue(m2)', 'enqueue(m2,steering)'],
      { queue: [], waking: 0, outbox: [S('m2')] },
    ],
    [
      'R46, R41: while a claim opens (window open), an item behind the head becomes steering',
      claiming({}, { queue: [q('m1'), q('m2')] }),
      promote('m2'),
      ['dequeue(m2)', 'enqueue(m2,steering)'],
      { queue: [q('m1')], waking: 1, outbox: [S('m2')] },
    ],
    [
      'R46, R6: while idle, a parked item goes to the head as a waking item; reorder; one wake scheduled',
      idle({ queue: [q('p1', false), q('p2', false)] }),
      promote('p2'),
      [reorder('p2', 'p1'), 'schedule wake'],
      { queue: [msg('p2'), q('p1', false)], waking: 1, wakeScheduled: true },
    ],
    [
      'R46: a parked head becomes waking without a reorder (the order did not change)',
      idle({ queue: [q('p1', false), q('p2', false)] }),
      promote('p1'),
      ['schedule wake'],
      { queue: [msg('p1'), q('p2', false)], waking: 1, wakeScheduled: true },
    ],
    [
      'R46, R6: with a wake already scheduled, none is added',
      idle({ queue: [q('m1'), q('p2', false)], wakeScheduled: true }),
      promote('p2'),
      [reorder('p2', 'm1')],
      { queue: [msg('p2'), q('m1')], waking: 2 },
    ],
    [
      'R46, R13b: between turns (window closed, the next move pending) it goes to the head; no wake is scheduled',
      betweenTurns({}, { queue: [q('m1'), q('p2', false)] }),
      promote('p2'),
      [reorder('p2', 'm1')],
      { queue: [msg('p2'), q('m1')], waking: 2 },
    ],
  ]
  it.each(rows)('%s', checkRow)

  const folds: readonly FoldRow[] = [
    [
      'R46, R12: steering promoted during an admission enters after the prompt (behind the inherited prefix)',
      claiming(deciding({ inherited: 1 }), { queue: [q('m2')], outbox: [S('s0')] }),
      [promote('m2'), allowed],
      [
        'dequeue(m2)',
        'enqueue(m2,steering)',
        'turn/start(1)',
        'dequeue(s0)',
        'steering(s0)',
        'user(m1)',
        'dequeue(m2)',
        'steering(m2)',
        'step-hook#1(1.1)',
      ],
      { queue: [], waking: 0, outbox: [], lastTurn: 1, activity: stepHook() },
    ],
    [
      'R46, R13: promoted into an admission that is then blocked, it stays staged (R13c)',
      claiming(deciding(), { queue: [q('m2')] }),
      [promote('m2'), blocked],
      ['dequeue(m2)', 'enqueue(m2,steering)', 'stop#1', 'settle(m1,blocked)', 'schedule advance#1'],
      { ...rejected, queue: [], waking: 0, outbox: [S('m2')] },
    ],
    [
      'R46, R8: the promoted parked item is the next turn: the wake claims it, the rest stays parked',
      idle({ queue: [q('p1', false), q('p2', false)] }),
      [promote('p2'), { type: 'wake' }, { type: 'claim/dequeue', activity: 1 }],
      [
        'reorder(2)',
        'schedule wake',
        'running',
        'post claim/dequeue#1',
        'dequeue(p2)',
        'post claim/submit#1',
      ],
      {
        queue: [q('p1', false)],
        waking: 0,
        status: 'running',
        window: true,
        nextActivity: 2,
        activity: claim({ phase: 'dequeued', item: msg('p2') }),
      },
    ],
  ]
  it.each(folds)('%s', checkFold)

  const ignored: readonly IgnoredRow[] = [
    ['R46: the head a claim is dequeuing is not waiting', claiming({}, { queue: [q('m1')] }), promote('m1')],
    ['R46: staged steering is not in the queue', turning({}, { outbox: [S('s1')] }), promote('s1')],
    ['R46: staged context is not in the queue', turning({}, { outbox: [C('c1')] }), promote('c1')],
    ['R46: an unknown id', idle({ queue: [q('p1', false)] }), promote('nobody')],
  ]
  it.each(ignored)('%s', checkIgnored)
})

// ---------------------------------------------------------------------------------------------
// R47: the interrupting send

describe("ifBusy: 'interrupt' (R47)", () => {
  const clearRequeue = effect({
    kind: 'post',
    input: { type: 'cancel/clear', cause: { kind: 'user' }, keepInbox: true, requeue: true },
  })
  const rows: readonly Row[] = [
    [
      'R47, R25, R26: during a turn: at the head, then cancel-requested and a clear that keeps the inbox and requeues',
      turning({}, { queue: [q('m1')], outbox: [S('s1')] }),
      interrupt('u'),
      [
        live({ type: 'agent/inbox/enqueue', message: msg('u'), placement: 'queued', index: 0 }),
        live({ type: 'agent/cancel-requested', cause: { kind: 'user' } }),
        clearRequeue,
      ],
      { queue: [q('u'), q('m1')], waking: 2, cancelling: true },
    ],
    [
      'R47: during an admission: the same',
      claiming(deciding(), { queue: [q('m2')] }),
      interrupt('u'),
      ['enqueue(u,queued)', 'cancel(user)', 'post cancel/clear(user,keep,requeue)'],
      { queue: [q('u'), q('m2')], waking: 2, cancelling: true },
    ],
    [
      'R47: a string send that interrupts is kept compact at the head (it waits for the unwind)',
      turning({}, { queue: [q('m1')] }),
      { ...interrupt('u'), text: 'u' } as Input,
      ['enqueue(u,queued)', 'cancel(user)', 'post cancel/clear(user,keep,requeue)'],
      { queue: [qt('u'), q('m1')], waking: 2, cancelling: true },
    ],
    [
      'R47: between turns it only goes to the head (nothing runs to cancel; the next move claims it)',
      betweenTurns({}, { queue: [q('m1')] }),
      interrupt('u'),
      [live({ type: 'agent/inbox/enqueue', message: msg('u'), placement: 'queued', index: 0 })],
      { queue: [q('u'), q('m1')], waking: 2 },
    ],
    [
      'R47, R6: while idle it goes to the head, ahead of parked items, and schedules the wake',
      idle({ queue: [q('p1', false)] }),
      interrupt('u'),
      ['enqueue(u,queued)', 'schedule wake'],
      { queue: [q('u'), q('p1', false)], waking: 1, wakeScheduled: true },
    ],
    [
      'R47: a next-step send while the window is open is unaffected: steering, no cancel',
      turning({}, { queue: [q('m1')] }),
      { ...steer('s1'), interrupt: true } as Input,
      ['enqueue(s1,steering)'],
      { outbox: [S('s1')] },
    ],
    [
      'R47, R4: a steer while the window is closed falls back to the queue, at the head',
      betweenTurns({}, { queue: [q('m1')] }),
      { ...steer('s1'), interrupt: true } as Input,
      ['enqueue(s1,queued)'],
      { queue: [q('s1'), q('m1')], waking: 2 },
    ],
    [
      'R47: the clear of an interrupt keeps the inbox and marks the admission for requeue',
      claiming(deciding(), { queue: [q('u')], outbox: [S('s1')] }),
      { type: 'cancel/clear', cause: { kind: 'user' }, keepInbox: true, requeue: true },
      ['abort#1(user)', 'schedule unwind#1'],
      { activity: deciding({ abort: requeueAbort }) },
    ],
    [
      'R47, R13: an interrupted admission puts its prompt back right behind the interrupting item, not blocked',
      claiming(deciding({ abort: requeueAbort }), { queue: [q('u'), q('m2')] }),
      unwind,
      [
        'stop#1',
        live({ type: 'agent/inbox/enqueue', message: msg('m1'), placement: 'queued', index: 1 }),
        'schedule advance#1',
      ],
      { ...rejected, queue: [q('u'), q('m1'), q('m2')], waking: 3 },
    ],
    [
      'R47, R8: a parked prompt goes back parked',
      claiming(deciding({ item: q('p1', false), abort: requeueAbort }), { queue: [q('u')] }),
      unwind,
      ['stop#1', 'enqueue(p1,queued)', 'schedule advance#1'],
      { ...rejected, queue: [q('u'), q('p1', false)], waking: 1 },
    ],
    [
      'R47, R43: if the interrupting item was removed meanwhile, the prompt goes back to the head',
      claiming(deciding({ abort: requeueAbort })),
      unwind,
      ['stop#1', 'enqueue(m1,queued)', 'schedule advance#1'],
      { ...rejected, queue: [q('m1')], waking: 1 },
    ],
    [
      'R47, R14: a claim interrupted before its dequeue has nothing to put back',
      claiming({ abort: requeueAbort }, { queue: [q('u'), q('m1')] }),
      unwind,
      ['stop#1', 'schedule advance#1'],
      rejected,
    ],
    [
      'R47, R26: an interrupted turn ends aborted; its outbox stays as the next prefix',
      turning({ abort: requeueAbort }, { queue: [q('u')], outbox: [S('s1'), C('c1')] }),
      unwind,
      ['stop#1', 'step/end(1.1)', 'turn/end(1,aborted)', 'settled(1,aborted)', 'checkpoint#1'],
      ended,
    ],
  ]
  it.each(rows)('%s', checkRow)

  const folds: readonly FoldRow[] = [
    [
      'R47: interrupting an admission, end to end: head, cancel, requeue, then the interrupting item is claimed with no idle',
      claiming(deciding(), { queue: [q('m2')] }),
      [
        interrupt('u'),
        { type: 'cancel/clear', cause: { kind: 'user' }, keepInbox: true, requeue: true },
        unwind,
        { type: 'advance', activity: 1 },
        { type: 'claim/dequeue', activity: 2 },
      ],
      [
        'enqueue(u,queued)',
        'cancel(user)',
        'post cancel/clear(user,keep,requeue)',
        'abort#1(user)',
        'schedule unwind#1',
        'stop#1',
        'enqueue(m1,queued)',
        'schedule advance#1',
        'post claim/dequeue#2',
        'dequeue(u)',
        'post claim/submit#2',
      ],
      {
        queue: [q('m1'), q('m2')],
        waking: 2,
        activity: claim({ id: 2, phase: 'dequeued', item: msg('u') }),
        nextActivity: 3,
      },
    ],
  ]
  it.each(folds)('%s', checkFold)
})

// ---------------------------------------------------------------------------------------------
// R49: the turn guard

describe('turn guard (R49)', () => {
  const rows: readonly Row[] = [
    [
      'R49: a steer guarded for the turn in the window is staged with its guard',
      turning({}, { outbox: [C('c0')] }),
      guarded('s1', 1),
      ['enqueue(s1,steering)'],
      { outbox: [C('c0'), G('s1', 1)] },
    ],
    [
      'R49: an admission counts: a steer guarded for the turn it would open is staged',
      claiming(deciding({ turn: 4 }), { lastTurn: 3 }),
      guarded('s1', 4),
      ['enqueue(s1,steering)'],
      { outbox: [G('s1', 4)] },
    ],
    [
      'R49: a guarded steer processed after its turn ended (window closed) is enqueued as steering and expires at once',
      betweenTurns({}, { queue: [q('m2')] }),
      guarded('s1', 1),
      [
        live({ type: 'agent/inbox/enqueue', message: msg('s1'), placement: 'steering' }),
        discarded(['s1'], 'expired'),
      ],
      {},
    ],
    [
      'R49: processed while the next turn is in the window, it expires at once (never lands in turn 2)',
      turning({ turn: 2 }, { lastTurn: 2 }),
      guarded('s1', 1),
      ['enqueue(s1,steering)', 'discard:expired(s1)'],
      {},
    ],
    [
      'R49: processed while the admission of the next turn decides, it expires at once',
      claiming(deciding({ turn: 2 }), { lastTurn: 1 }),
      guarded('s1', 1),
      ['enqueue(s1,steering)', 'discard:expired(s1)'],
      {},
    ],
    [
      'R49, R29: processed while dispose() unwinds, it is discarded with reason dispose',
      turning({ abort: { cause: { kind: 'disposed' }, keepInbox: false } }, { disposal: 'disposing' }),
      guarded('s1', 1),
      ['enqueue(s1,steering)', 'discard(s1)'],
      {},
    ],
    [
      'R49, R25: guarded steering still staged when its turn is aborted expires after turn/end; unguarded steering stays',
      turning({ abort: keptAbort }, { outbox: [G('s1', 1), S('s2'), C('c1')] }),
      unwind,
      [
        'stop#1',
        'step/end(1.1)',
        'turn/end(1,aborted)',
        discarded(['s1'], 'expired'),
        'settled(1,aborted)',
        'checkpoint#1',
      ],
      { ...ended, outbox: [S('s2'), C('c1')] },
    ],
    [
      'R49, R23, V1: at a failed turn/end it expires; the context left without steering is appended',
      turning({ phase: 'step-hook', stepOpen: false }, { outbox: [G('s1', 1), C('c1')] }),
      { type: 'hook/failed', activity: 1, step: 1, error: boom },
      [
        'error(1.1)',
        'turn/end(1,error)',
        'discard:expired(s1)',
        'user(c1)',
        'settled(1,error)',
        'checkpoint#1',
      ],
      { ...ended, outbox: [] },
    ],
    [
      'R49, R13: guarded for the turn a blocked admission would have opened, it expires; other steering stays',
      claiming(deciding(), { outbox: [G('s1', 1), S('s2')] }),
      blocked,
      ['stop#1', 'settle(m1,blocked)', discarded(['s1'], 'expired'), 'schedule advance#1'],
      { ...rejected, outbox: [S('s2')] },
    ],
    [
      'R49, R13: once it expired at a rejected admission, the context-only outbox is appended at once',
      claiming(deciding(), { outbox: [C('c0'), G('s1', 1)] }),
      blocked,
      ['stop#1', 'settle(m1,blocked)', 'discard:expired(s1)', 'user(c0)', 'persist', 'schedule advance#1'],
      { ...rejected, outbox: [] },
    ],
    [
      'R49, R47: an interrupted admission is rejected too: its guarded steering expires, its prompt is requeued',
      claiming(deciding({ abort: requeueAbort }), { queue: [q('u')], outbox: [G('s1', 1), S('s2')] }),
      unwind,
      ['stop#1', 'enqueue(m1,queued)', 'discard:expired(s1)', 'schedule advance#1'],
      { ...rejected, queue: [q('u'), q('m1')], waking: 2, outbox: [S('s2')] },
    ],
  ]
  it.each(rows)('%s', checkRow)
})

// ---------------------------------------------------------------------------------------------
// R50: journal outputs while the store keeps an inbox journal

describe('journal (R50)', () => {
  const rows: readonly Row[] = [
    [
      'R50: a followup is journaled as an add at the tail, after its enqueue',
      idle({ ...J, queue: [q('p0', false)] }),
      followup('m1'),
      [
        'enqueue(m1,queued)',
        journal({ op: 'add', message: msg('m1'), placement: 'queued' }),
        'schedule wake',
      ],
      { queue: [q('p0', false), q('m1')], waking: 1, wakeScheduled: true },
    ],
    [
      'R50, R8: a parked send is journaled with placement parked',
      idle(J),
      parked('p1'),
      ['enqueue(p1,queued)', journal({ op: 'add', message: msg('p1'), placement: 'parked' })],
      { queue: [q('p1', false)] },
    ],
    [
      'R50, R49: staged steering is journaled with its turn guard',
      turning({}, J),
      guarded('s1', 1),
      ['enqueue(s1,steering)', journal({ op: 'add', message: msg('s1'), placement: 'steering', turn: 1 })],
      { outbox: [G('s1', 1)] },
    ],
    [
      'R50, R47: an interrupting send is journaled as an add at the head',
      betweenTurns({}, { ...J, queue: [q('m1')] }),
      interrupt('u'),
      ['enqueue(u,queued)', journal({ op: 'add', message: msg('u'), placement: 'queued', at: 'head' })],
      { queue: [q('u'), q('m1')], waking: 2 },
    ],
    [
      'R50, R44: a replace is journaled with the new message',
      turning({}, { ...J, queue: [q('m1')] }),
      replace(edited('m1', 'M1!')),
      [journal({ op: 'replace', message: edited('m1', 'M1!') }), 'replace(M1!)'],
      { queue: [edited('m1', 'M1!')] },
    ],
    [
      'R50, R45: a move is journaled with the item it now stands before (null: the tail)',
      turning({}, { ...J, queue: [q('a'), q('b'), q('c')] }),
      move('a', 99),
      ['reorder(3)', journal({ op: 'move', id: id('a'), before: null })],
      { queue: [q('b'), q('c'), q('a')] },
    ],
    [
      'R50, R45: a move into the middle names its new successor',
      turning({}, { ...J, queue: [q('a'), q('b'), q('c')] }),
      move('c', 1),
      ['reorder(3)', journal({ op: 'move', id: id('c'), before: id('b') })],
      { queue: [q('a'), q('c'), q('b')] },
    ],
    [
      'R50, R47: an interrupted admission journals where its prompt went back (the claim left no record)',
      claiming(deciding({ abort: requeueAbort }), { ...J, queue: [q('u'), q('m2')] }),
      unwind,
      [
        'stop#1',
        live({ type: 'agent/inbox/enqueue', message: msg('m1'), placement: 'queued', index: 1 }),
        journal({ op: 'move', id: id('m1'), before: id('m2') }),
        'schedule advance#1',
      ],
      { ...rejected, ...J, queue: [q('u'), q('m1'), q('m2')], waking: 3 },
    ],
    [
      'R50, R46: a promote into the window is journaled as to steering',
      turning({}, { ...J, queue: [q('m1')] }),
      promote('m1'),
      ['dequeue(m1)', 'enqueue(m1,steering)', journal({ op: 'promote', id: id('m1'), to: 'steering' })],
      { queue: [], waking: 0, outbox: [S('m1')] },
    ],
    [
      'R50, R46: a promote while the window is closed is journaled as to the head',
      idle({ ...J, queue: [q('p1', false), q('p2', false)] }),
      promote('p2'),
      ['reorder(2)', journal({ op: 'promote', id: id('p2'), to: 'head' }), 'schedule wake'],
      { queue: [msg('p2'), q('p1', false)], waking: 1, wakeScheduled: true },
    ],
    [
      'R50, R43: a removed queued item settles discarded (removed)',
      turning({}, { ...J, queue: [q('m1')] }),
      remove('m1'),
      ['discard:removed(m1)', journal(settled('m1', 'removed'))],
      { queue: [], waking: 0 },
    ],
    [
      'R50, R43: a removed context settles discarded (removed), its only record',
      turning({}, { ...J, outbox: [C('c1')] }),
      remove('c1'),
      ['settle(c1,discarded)', journal(settled('c1', 'removed'))],
      { outbox: [] },
    ],
    [
      "R50, R25: a cancel's discard settles each message, queued first, then steering",
      turning({}, { ...J, queue: [q('m1')], outbox: [S('s1')] }),
      clear('user'),
      [
        'discard(m1,s1)',
        journal(settled('m1', 'cancel')),
        journal(settled('s1', 'cancel')),
        'abort#1(user)',
        'schedule unwind#1',
      ],
      {
        queue: [],
        waking: 0,
        outbox: [],
        activity: turn({ abort: { cause: { kind: 'user' }, keepInbox: false } }),
      },
    ],
    [
      'R50, R49: guarded steering that expires settles expired',
      betweenTurns({}, J),
      guarded('s1', 1),
      ['enqueue(s1,steering)', 'discard:expired(s1)', journal(settled('s1', 'expired'))],
      {},
    ],
    [
      'R50, R13: a blocked prompt settles blocked',
      claiming(deciding(), J),
      blocked,
      [
        'stop#1',
        'settle(m1,blocked)',
        journal({ op: 'settle', id: id('m1'), outcome: { kind: 'blocked', reason: 'no' } }),
        'schedule advance#1',
      ],
      rejected,
    ],
  ]
  it.each(rows)('%s', checkRow)
})

// ---------------------------------------------------------------------------------------------
// Defects these tables found. Each row below FAILS on the reducer as it is; the commit that added
// them describes each defect. They stay red until the reducer is fixed.

describe('regressions: defects these rows found', () => {
  const folds: readonly FoldRow[] = [
    [
      'R12, R43: removing inherited steering during the admission does not pull steering accepted during it ahead of the prompt',
      claiming(deciding({ inherited: 1 }), { outbox: [S('s0'), S('s1')] }),
      [remove('s0'), allowed],
      ['discard:removed(s0)', 'turn/start(1)', 'user(m1)', 'dequeue(s1)', 'steering(s1)', 'step-hook#1(1.1)'],
      { outbox: [], lastTurn: 1, activity: stepHook() },
    ],
    [
      'R12, R43: removing inherited context during the admission does not pull steering accepted during it ahead of the prompt',
      claiming(deciding({ inherited: 1 }), { outbox: [C('c0'), S('s1')] }),
      [remove('c0'), allowed],
      [
        'settle(c0,discarded)',
        'turn/start(1)',
        'user(m1)',
        'dequeue(s1)',
        'steering(s1)',
        'step-hook#1(1.1)',
      ],
      { outbox: [], lastTurn: 1, activity: stepHook() },
    ],
  ]
  it.each(folds)('%s', checkFold)

  const rows: readonly Row[] = [
    [
      'R13, V1: withdrawing the last inherited steering during a claim appends the inherited context at once',
      claiming({ inherited: 2 }, { queue: [q('m1')], outbox: [C('c0'), S('s1'), S('s2')] }),
      remove('s1'),
      ['discard:removed(s1)', 'user(c0)', 'persist'],
      { outbox: [S('s2')], activity: claim({ inherited: 0 }) },
    ],
    [
      'R12: withdrawing inherited steering while other inherited steering stays keeps the prefix',
      claiming({ inherited: 3 }, { outbox: [C('c0'), S('s1'), S('s2')] }),
      remove('s1'),
      ['discard:removed(s1)'],
      { outbox: [C('c0'), S('s2')], activity: claim({ inherited: 2 }) },
    ],
    [
      'R50: staged context (an inject while the window is open) is journaled as an add with placement context',
      turning({}, J),
      inject('i1'),
      [journal({ op: 'add', message: msg('i1'), placement: 'context' })],
      { outbox: [C('i1')] },
    ],
    [
      'R43, R41: once a cancel hit the opening claim it never dequeues its head, so the head waits and can be removed',
      claiming({ abort: requeueAbort }, { queue: [q('u'), q('m1')] }),
      remove('u'),
      ['discard:removed(u)'],
      { queue: [q('m1')], waking: 1 },
    ],
  ]
  it.each(rows)('%s', checkRow)

  const ignored: readonly IgnoredRow[] = [
    [
      'R46: promoting the waking head while the window is closed and a wake is scheduled changes nothing (same state)',
      idle({ queue: [q('m1'), q('p2', false)], wakeScheduled: true }),
      promote('m1'),
    ],
  ]
  it.each(ignored)('%s', checkIgnored)
})
