/**
 * Table tests of decisions (`approvals.ts`): `approve` and `deny` (R62), and the timeout that
 * denies (R66).
 */
import { describe, it } from 'vitest'
import {
  betweenTurns,
  checkFold,
  checkIgnored,
  checkRow,
  durable,
  type FoldRow,
  type IgnoredRow,
  live,
  type Row,
  turn,
} from '../support/machineFixtures.js'
import {
  approve,
  c1,
  decisionOf,
  deniedResultOf,
  deny,
  inTurn,
  paused,
  pausedOn,
  ran,
  runningStatus,
  timeout,
} from '../support/pauseFixtures.js'

describe('decide (R62)', () => {
  const rows: readonly Row[] = [
    [
      'R62: approving the last pending call writes the decision, resumes, and runs only that call',
      paused(),
      approve('c1'),
      [decisionOf({ callId: 'c1', decision: 'approved' }), runningStatus, 'tools#1(1.1,c1,c2;only 0)'],
      { status: 'running', ...inTurn({ approvals: ['approved', undefined] }) },
    ],
    [
      'R62: a denial records DENIED with the reason next, in model order; the pause ends',
      paused(),
      deny('c1', 'too risky'),
      [
        decisionOf({ callId: 'c1', decision: 'denied', reason: 'too risky' }),
        runningStatus,
        live({
          type: 'agent/tool/end',
          turn: 1,
          step: 1,
          callId: 'c1',
          index: 0,
          isError: true,
          code: 'DENIED',
        }),
        durable('tool/call', { turn: 1, step: 1, call: c1 }),
        durable('tool/result', { turn: 1, step: 1, result: deniedResultOf('c1', 'too risky') }),
      ],
      {
        status: 'running',
        ...inTurn({
          approvals: ['denied', undefined],
          toolResults: 1,
          outcomes: [{ result: deniedResultOf('c1', 'too risky'), concluded: false }],
        }),
      },
    ],
    [
      'R62: with another call still pending the decision is written and the turn stays paused',
      pausedOn(['pending', 'pending']),
      approve('c2', { source: { kind: 'plugin', plugin: 'p' } }),
      [
        durable('approval/decision', {
          turn: 1,
          step: 1,
          callId: 'c2',
          index: 1,
          decision: 'approved',
          source: { kind: 'plugin', plugin: 'p' },
        }),
        'tools#1(1.1,c1,c2;only 1)',
      ],
      { status: 'paused', ...inTurn({ approvals: ['pending', 'approved'] }) },
    ],
  ]
  it.each(rows)('%s', checkRow)

  const folds: readonly FoldRow[] = [
    [
      'R21/R62: a later denial waits behind an earlier pending call, in model order',
      pausedOn(['pending', 'pending']),
      [deny('c2'), approve('c1'), ran(0, 'c1')],
      [
        'approval/decision(denied)',
        'tool/end(c2,DENIED)',
        'approval/decision(approved)',
        'running',
        'tools#1(1.1,c1,c2;only 0)',
        'tool/end(c1)',
        'tool/call(shell)',
        'tool/result(c1)',
        'tool/call(read)',
        'tool/result(c2,DENIED)',
        'step/end(1.1)',
        'step-hook#1(1.2)',
      ],
      { status: 'running', activity: turn({ step: 2, phase: 'step-hook', stepOpen: false }) },
    ],
    [
      'R62: the step goes on after a denial once the call that needed none has answered',
      paused(),
      [ran(1, 'c2'), deny('c1')],
      [
        'tool/end(c2)',
        'approval/decision(denied)',
        'running',
        'tool/end(c1,DENIED)',
        'tool/call(shell)',
        'tool/result(c1,DENIED)',
        'tool/call(read)',
        'tool/result(c2)',
        'step/end(1.1)',
        'step-hook#1(1.2)',
      ],
      { status: 'running', activity: turn({ step: 2, phase: 'step-hook', stepOpen: false }) },
    ],
  ]
  it.each(folds)('%s', checkFold)

  const ignored: readonly IgnoredRow[] = [
    ['R62: a call that is not pending is not decided', paused(), approve('c2')],
    ['R62: a place the step has no call at is not decided', paused(), deny('c9', undefined, { index: 5 })],
    ['R62: a call of another step is not decided', paused(), approve('c1', { step: 2 })],
    ['R62: a call decided already is not decided again', pausedOn(['approved', undefined]), deny('c1')],
    [
      'R64: nothing is decided once a cancel hit the pause',
      paused({ abort: { cause: { kind: 'user' }, keepInbox: false } }),
      approve('c1'),
    ],
    ['R62: nothing is decided between turns', betweenTurns(), approve('c1')],
  ]
  it.each(ignored)('%s', checkIgnored)
})

describe('approval/timeout (R66)', () => {
  const rows: readonly Row[] = [
    [
      'R66: a timeout denies the call with reason timeout and source system; it never approves',
      paused(),
      timeout(0),
      [
        durable('approval/decision', {
          turn: 1,
          step: 1,
          callId: 'c1',
          index: 0,
          decision: 'denied',
          source: { kind: 'system' },
          reason: 'timeout',
        }),
        runningStatus,
        'tool/end(c1,DENIED)',
        'tool/call(shell)',
        'tool/result(c1,DENIED)',
      ],
      {
        status: 'running',
        ...inTurn({
          approvals: ['denied', undefined],
          toolResults: 1,
          outcomes: [{ result: deniedResultOf('c1', 'timeout'), concluded: false }],
        }),
      },
    ],
  ]
  it.each(rows)('%s', checkRow)

  const ignored: readonly IgnoredRow[] = [
    ['R66: a timer of a call decided already does nothing', pausedOn(['approved', undefined]), timeout(0)],
    ['R66: a timer of an earlier step does nothing', paused({ step: 2 }), timeout(0, 1)],
    ['R66: a timer of an earlier turn does nothing', paused({ id: 2 }), timeout(0)],
    ['R66: a timer of a call that needed none does nothing', paused(), timeout(1)],
  ]
  it.each(ignored)('%s', checkIgnored)
})
