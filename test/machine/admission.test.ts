/** Table tests of `claim.ts`: wake, dequeue, submit and the admission decision (R6–R14). */
import { describe, it } from 'vitest'
import type { Input } from '../../src/machine/inputs.js'
import {
  between,
  boom,
  C,
  checkIgnored,
  checkRow,
  claim,
  claiming,
  deciding,
  durable,
  effect,
  type IgnoredRow,
  idle,
  live,
  make,
  msg,
  PLUGIN,
  q,
  qt,
  type Row,
  S,
  stepHook,
  text,
  turning,
  USER,
} from '../support/machineFixtures.js'

// ---------------------------------------------------------------------------------------------
// Claim and admission (R6, R8–R14)

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
      'R10: a compact {id, text} head is dequeued as its whole message, which the claim keeps',
      claiming({}, { queue: [qt('m1'), q('m2')] }),
      { type: 'claim/dequeue', activity: 1 },
      [live({ type: 'agent/inbox/dequeue', message: msg('m1') }), 'post claim/submit#1'],
      { queue: [q('m2')], waking: 1, activity: claim({ phase: 'dequeued', item: msg('m1') }) },
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
      claiming({ phase: 'dequeued', item: msg('m1', PLUGIN) }),
      { type: 'claim/submit', activity: 1 },
      [
        effect({
          kind: 'prompt-submit',
          activity: 1,
          content: msg('m1', PLUGIN).content,
          source: PLUGIN,
        }),
      ],
      { activity: claim({ phase: 'deciding', item: msg('m1', PLUGIN) }) },
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
    ['R29: a wake after dispose() is ignored', idle({ disposal: 'closing' }), { type: 'wake' }],
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
        durable('turn/start', { turn: 1, trigger: { kind: 'message', source: USER, id: 'm1' } }),
        durable('user/message', { content: [text('m1')], source: USER, id: 'm1' }),
        'step-hook#1(1.1)',
      ],
      { lastTurn: 1, activity: stepHook() },
    ],
    [
      'R12: inherited prefix, rewritten prompt (original source), additional contexts, then admission-time entries',
      claiming(deciding({ inherited: 2, item: msg('m1', PLUGIN) }), {
        outbox: [S('s0'), C('c0'), S('s1'), C('c1')],
      }),
      allowed({ content: [text('rewritten')], additionalContexts: [msg('a1'), msg('a2')] }),
      [
        durable('turn/start', { turn: 1, trigger: { kind: 'message', source: PLUGIN, id: 'm1' } }),
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
      ['stop#1', 'settle(m1,blocked)', 'schedule advance#1'],
      rejected,
    ],
    [
      'R13: a block appends a context-only outbox at once, in order',
      claiming(deciding(), { outbox: [C('c0'), C('c1')] }),
      { type: 'admission/blocked', activity: 1, reason: 'no' },
      ['stop#1', 'settle(m1,blocked)', 'user(c0)', 'user(c1)', 'persist', 'schedule advance#1'],
      { ...rejected, outbox: [] },
    ],
    [
      'R13: with steering staged, the whole outbox stays for retry() or the next prompt',
      claiming(deciding(), { outbox: [C('c0'), S('s1'), C('c1')] }),
      { type: 'admission/blocked', activity: 1, reason: 'no' },
      ['stop#1', 'settle(m1,blocked)', 'schedule advance#1'],
      rejected,
    ],
    [
      'R13: a hook failure is an agent/error on the turn it would have opened, step 0',
      claiming(deciding({ turn: 4 }), { lastTurn: 3 }),
      { type: 'admission/failed', activity: 1, error: boom },
      [
        live({ type: 'agent/error', turn: 4, step: 0, error: boom }),
        'stop#1',
        'settle(m1,blocked)',
        'schedule advance#1',
      ],
      rejected,
    ],
    [
      'R13: a failed admission appends staged contexts after the error',
      claiming(deciding(), { outbox: [C('c0')] }),
      { type: 'admission/failed', activity: 1, error: boom },
      ['error(1.0)', 'stop#1', 'settle(m1,blocked)', 'user(c0)', 'persist', 'schedule advance#1'],
      { ...rejected, outbox: [] },
    ],
  ]
  it.each(rows)('%s', checkRow)
})
