/**
 * Table tests of `approvals.ts`, the pause itself: the step's `needsApproval` answers (R61) and a
 * turn that reopens paused after a restart (R65). Decisions are in decide.test.ts.
 */
import { describe, expect, it } from 'vitest'
import {
  betweenTurns,
  checkIgnored,
  checkRow,
  durable,
  fold,
  type IgnoredRow,
  live,
  type Row,
  turn,
} from '../support/machineFixtures.js'
import {
  c1,
  checked,
  deniedResultOf,
  inTools,
  inTurn,
  paused,
  pausedOn,
  resume,
} from '../support/pauseFixtures.js'

const request = (call: typeof c1) =>
  durable('approval/request', {
    turn: 1,
    step: 1,
    callId: call.id,
    index: call.id === 'c2' ? 1 : 0,
    name: call.name,
    arguments: '{}',
  })
const requested = (call: typeof c1) =>
  live({
    type: 'agent/approval/requested',
    turn: 1,
    step: 1,
    callId: call.id,
    index: call.id === 'c2' ? 1 : 0,
    name: call.name,
    arguments: '{}',
  })
const pausedStatus = live({ type: 'agent/status', status: 'paused' })

describe('approvals/checked (R61, R65)', () => {
  const rows: readonly Row[] = [
    [
      'R61/R65: a call that needs approval is requested, the turn pauses, the others run, the pause is flushed',
      inTools(),
      checked([true, false]),
      [
        request(c1),
        requested(c1),
        pausedStatus,
        'tools#1(1.1,c1,c2;only 1)',
        'approval-timer#1(1.0)',
        'persist',
      ],
      { status: 'paused', ...inTurn({ approvals: ['pending', undefined] }) },
    ],
    [
      'R61: every call that needs approval is requested in model order, and nothing runs',
      inTools(),
      checked([true, true]),
      [
        'approval/request(shell)',
        'approval?(shell)',
        'approval/request(read)',
        'approval?(read)',
        'paused',
        'approval-timer#1(1.0)',
        'approval-timer#1(1.1)',
        'persist',
      ],
      { status: 'paused', ...inTurn({ approvals: ['pending', 'pending'] }) },
    ],
    [
      'R61: a step none of whose calls needs approval runs them all, with no pause and no flush',
      inTools(),
      checked([false, false]),
      ['tools#1(1.1,c1,c2;only 0,1)'],
      inTurn({ approvals: [undefined, undefined] }),
    ],
    [
      'R61: what a predicate threw is reported as agent/error first; the call waits for approval',
      inTools(),
      checked([true, false], ['boom']),
      [
        live({ type: 'agent/error', turn: 1, step: 1, error: 'boom' }),
        'approval/request(shell)',
        'approval?(shell)',
        'paused',
        'tools#1(1.1,c1,c2;only 1)',
        'approval-timer#1(1.0)',
        'persist',
      ],
      { status: 'paused', ...inTurn({ approvals: ['pending', undefined] }) },
    ],
  ]
  it.each(rows)('%s', checkRow)

  const ignored: readonly IgnoredRow[] = [
    ['R61: answers for a step already checked are ignored', paused(), checked([true, false])],
    ['R61: answers for another step are ignored', inTools(), checked([true, false], [], 2)],
    ['R61: answers after the turn ended are ignored', betweenTurns(), checked([true, false])],
    [
      'R25: answers after a cancel are ignored (the unwind aborts every call)',
      inTools({ abort: { cause: { kind: 'user' }, keepInbox: false } }),
      checked([true, false]),
    ],
    [
      'R61: answers outside the tools phase are ignored',
      inTools({ phase: 'step-hook', stepOpen: false }),
      checked([true]),
    ],
  ]
  it.each(ignored)('%s', checkIgnored)
})

describe('turn/resume (R65)', () => {
  const rows: readonly Row[] = [
    [
      'R65: on reopen the calls the pause does not hold run again, and the pending ones are timed again',
      paused(),
      resume([1]),
      ['tools#1(1.1,c1,c2;only 1)', 'approval-timer#1(1.0)'],
      {},
    ],
    [
      'R65: an approved call without a result runs again; a call with its result kept does not',
      pausedOn(['approved', 'pending'], { toolResults: 0 }, { status: 'running' }),
      resume([0]),
      ['tools#1(1.1,c1,c2;only 0)', 'approval-timer#1(1.1)'],
      {},
    ],
    [
      'R65, V9: a call approved after the reopen, before the resume, runs once: the resume runs only what the log owed',
      pausedOn(['approved', 'pending'], { toolResults: 0 }, { status: 'running' }),
      resume([]),
      ['approval-timer#1(1.1)'],
      {},
    ],
    [
      'R65: a call denied before the restart gets its DENIED result once the calls before it have theirs',
      pausedOn(['approved', 'denied'], { toolResults: 1 }, { status: 'running' }),
      resume(),
      [
        'tool/end(c2,DENIED)',
        'tool/call(read)',
        'tool/result(c2,DENIED)',
        'step/end(1.1)',
        'step-hook#1(1.2)',
      ],
      { activity: turn({ step: 2, phase: 'step-hook', stepOpen: false }) },
    ],
  ]
  it.each(rows)('%s', checkRow)

  it('R62/R65: a denial made before the restart keeps its reason in the DENIED result', () => {
    const before = pausedOn(['approved', 'denied'], { toolResults: 1 }, { status: 'running' })
    const r = fold(before, [{ type: 'turn/resume', activity: 1, reasons: [undefined, 'not b'] }])
    expect(r.out[2]).toStrictEqual(
      durable('tool/result', { turn: 1, step: 1, result: deniedResultOf('c2', 'not b') }),
    )
  })

  const ignored: readonly IgnoredRow[] = [
    ['R65: a resume of another activity does nothing', paused(), resume([1], 2)],
    ['R65: a resume after the turn ended does nothing', betweenTurns(), resume()],
  ]
  it.each(ignored)('%s', checkIgnored)
})
