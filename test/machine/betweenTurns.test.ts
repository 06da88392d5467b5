/** Table tests of `close.ts`: checkpoint, the next move and retry (R8, R9, R13b, R13c, R24, R36). */
import { describe, expect, it } from 'vitest'
import { reduce } from '../../src/machine/reduce.js'
import { canRetry } from '../../src/machine/selectors.js'
import {
  between,
  betweenTurns,
  boom,
  C,
  checkIgnored,
  checkRow,
  claim,
  claiming,
  deciding,
  deepFreeze,
  durable,
  type IgnoredRow,
  idle,
  live,
  q,
  type Row,
  S,
  show,
  stepHook,
  turning,
} from '../support/machineFixtures.js'

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
      'R29: while disposing, the next move finishes: staged context (V1), idle, the closing hop',
      betweenTurns({ checkpointed: true }, { disposal: 'disposing', outbox: [C('c1')] }),
      { type: 'advance', activity: 1 },
      ['user(c1)', 'idle', 'post dispose/close'],
      { activity: null, status: 'idle', outbox: [], disposal: 'closing' },
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
      { retryPending: true, retryError: boom },
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
    [
      'R24: retry() between the failed step/end and requestError is ignored',
      turning({ phase: 'request-failed', stepOpen: false, requestError: boom }),
      { type: 'retry' },
    ],
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
    ['R29: retry() while disposing is ignored', idle({ disposal: 'closing' }), { type: 'retry' }],
  ]
  it.each(ignored)('%s', checkIgnored)
})

describe('close: a retry that never opens', () => {
  it('R24, R29: dispose() between a failed turn and its retry publishes the owed settled {error}', () => {
    const before = betweenTurns(
      { checkpointed: true },
      { retryPending: true, retryError: boom, disposal: 'disposing', status: 'running', lastTurn: 1 },
    )
    const { state, out } = reduce(deepFreeze(before), { type: 'advance', activity: 1 })
    expect(out.map(show)).toEqual(['settled(1,error)', 'idle', 'post dispose/close'])
    expect(state.retryPending).toBe(false)
  })
})

describe("close: canRetry, the façade's check before it sends retry()", () => {
  const cases: readonly [string, Parameters<typeof canRetry>[0], boolean][] = [
    ['R24: idle: allowed', idle(), true],
    [
      'R24: inside requestError: allowed',
      turning({ phase: 'request-error', stepOpen: false, requestError: boom }),
      true,
    ],
    [
      'R24: after the failed step/end, before requestError starts: refused',
      turning({ phase: 'request-failed', stepOpen: false, requestError: boom }),
      false,
    ],
    ['R24: while the model streams: refused', turning(), false],
    ['R24: during an admission: refused', claiming(deciding()), false],
    ['R24: between turns: refused', betweenTurns(), false],
  ]
  it.each(cases)('%s', (_name, state, allowed) => expect(canRetry(state)).toBe(allowed))
})
