/** Table tests of `cancel.ts`: cancel, clear, unwind, dispose and disposeClose (R25–R27, R29, V1). */
import { describe, expect, it } from 'vitest'
import type { Input } from '../../src/machine/inputs.js'
import {
  between,
  betweenTurns,
  C,
  call,
  cancel,
  checkIgnored,
  checkRow,
  claiming,
  clear,
  deciding,
  draft,
  durable,
  effect,
  fold,
  type IgnoredRow,
  idle,
  live,
  msg,
  q,
  qt,
  type Row,
  result,
  S,
  show,
  turn,
  turning,
} from '../support/machineFixtures.js'

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
      { cancelling: true },
    ],
    [
      'R25: a cancel during an admission is effective',
      claiming(deciding()),
      cancel('parent', true),
      ['cancel(parent)', 'post cancel/clear(parent,keep)'],
      { cancelling: true },
    ],
    [
      'R25: an idle cancel without keepInbox is effective when items are queued (parked too)',
      idle({ queue: [q('p1', false)] }),
      cancel('user'),
      ['cancel(user)', 'post cancel/clear(user)'],
      { cancelling: true },
    ],
    [
      'R25: an idle cancel without keepInbox is effective when leftover steering is staged',
      idle({ outbox: [S('s1')] }),
      cancel('user'),
      ['cancel(user)', 'post cancel/clear(user)'],
      { cancelling: true },
    ],
    [
      'R25: a second cancel while the turn unwinds is still effective (the abort keeps the first cause)',
      turning({ abort: userAbort }),
      cancel('parent'),
      ['cancel(parent)', 'post cancel/clear(parent)'],
      { cancelling: true },
    ],
    [
      'R25: the clear discards queued items then steering (one discard), aborts, and schedules the unwind',
      turning({}, { queue: [q('m1'), q('p2', false)], outbox: [S('s1'), C('c1'), S('s2')] }),
      clear('user'),
      [
        live({
          type: 'agent/inbox/discard',
          messages: [msg('m1'), msg('p2'), msg('s1'), msg('s2')],
          reason: 'cancel',
        }),
        effect({ kind: 'abort', activity: 1, cause: { kind: 'user' } }),
        'schedule unwind#1',
      ],
      { queue: [], waking: 0, outbox: [C('c1')], activity: turn({ abort: userAbort }) },
    ],
    [
      'R25: compact {id, text} items are discarded as their whole messages, in FIFO order',
      turning({}, { queue: [qt('m1'), q('m2'), qt('m3')] }),
      clear('user'),
      [
        live({ type: 'agent/inbox/discard', messages: [msg('m1'), msg('m2'), msg('m3')], reason: 'cancel' }),
        effect({ kind: 'abort', activity: 1, cause: { kind: 'user' } }),
        'schedule unwind#1',
      ],
      { queue: [], waking: 0, activity: turn({ abort: userAbort }) },
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
      ['discard(s1)', durable('user/message', msg('c1')), 'persist'],
      { outbox: [] },
    ],
    [
      'V1: a clear between turns (no turn open) appends staged context at once',
      betweenTurns({ checkpointed: true }, { queue: [q('m2')], outbox: [C('c1'), S('s1')] }),
      clear('user'),
      ['discard(m2,s1)', 'user(c1)', 'persist'],
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
      ['stop#1', 'settle(m1,blocked)', 'user(c1)', 'persist', 'schedule advance#1'],
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
      'tool/end(c2,ABORTED_BEFORE_DISPATCH)',
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
      'tool/start(c1)',
      'tool/end(c1,ABORTED)',
      'tool/call(read)',
      'tool/result(c1,ABORTED)',
      'tool/end(c2,ABORTED_BEFORE_DISPATCH)',
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
      'tool/end(c1)',
      'tool/call(read)',
      'tool/result(c1)',
      'tool/end(c2,ABORTED_BEFORE_DISPATCH)',
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

describe('dispose and disposeClose (R29, V1)', () => {
  const rows: readonly Row[] = [
    [
      'R29: an idle dispose closes the store after the drain (no cancel-requested)',
      idle(),
      { type: 'dispose' },
      ['post dispose/close'],
      { disposal: 'closing' },
    ],
    [
      'R29/V1: an idle dispose discards the queue, appends staged context, and cancels the wake',
      idle({ queue: [q('m1'), q('p2', false)], wakeScheduled: true, outbox: [S('s1'), C('c1')] }),
      { type: 'dispose' },
      ['discard(m1,p2,s1)', 'user(c1)', 'post dispose/close'],
      { queue: [], waking: 0, wakeScheduled: false, outbox: [], disposal: 'closing' },
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
      'R57: an idle release discards nothing: the queue and the staged steering with its context stay',
      idle({ queue: [q('p1', false)], outbox: [S('s1'), C('c1')] }),
      { type: 'dispose', keepInbox: true },
      ['post dispose/close'],
      { disposal: 'closing', releasing: true },
    ],
    [
      'R57: a release during a turn discards nothing and aborts it like a keepInbox cancel',
      turning({}, { queue: [q('m2')], outbox: [S('s1')] }),
      { type: 'dispose', keepInbox: true },
      [effect({ kind: 'abort', activity: 1, cause: { kind: 'disposed' } }), 'schedule unwind#1'],
      {
        disposal: 'disposing',
        releasing: true,
        activity: turn({ abort: { ...disposedAbort, keepInbox: true, requeue: true } }),
      },
    ],
    [
      'R57: a released admission puts its prompt back at the head, where the journal has it',
      claiming(deciding({ abort: { ...disposedAbort, keepInbox: true, requeue: true } }), {
        queue: [q('m2')],
        disposal: 'disposing',
        releasing: true,
      }),
      { type: 'unwind', activity: 1 },
      [
        'stop#1',
        live({ type: 'agent/inbox/enqueue', message: msg('m1'), placement: 'queued', index: 0 }),
        'schedule advance#1',
      ],
      {
        queue: [q('m1'), q('m2')],
        waking: 2,
        window: false,
        activity: between({ checkpointed: true }),
      },
    ],
    [
      'R29: dispose between turns waits for the scheduled next move',
      betweenTurns({}, { queue: [q('m2')] }),
      { type: 'dispose' },
      ['discard(m2)'],
      { queue: [], waking: 0, disposal: 'disposing' },
    ],
    [
      'R29: the closing hop after the drain flushes and closes the store',
      idle({ disposal: 'closing' }),
      { type: 'dispose/close' },
      ['close-store'],
      {},
    ],
    [
      'R29: disposeClosed completes the streams',
      idle({ disposal: 'closing' }),
      { type: 'dispose/closed' },
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
    [
      'R29: dispose/closed before closing is ignored',
      idle({ disposal: 'disposing' }),
      { type: 'dispose/closed' },
    ],
    ['R29: a repeated dispose/closed is ignored', idle({ disposal: 'disposed' }), { type: 'dispose/closed' }],
    [
      'R29: the hop after dispose is ignored once closed',
      idle({ disposal: 'disposed' }),
      { type: 'dispose/close' },
    ],
    ['R29: the hop after dispose is ignored without a dispose', idle(), { type: 'dispose/close' }],
  ]
  it.each(ignored)('%s', checkIgnored)
})
