/**
 * Table tests of sends while a turn is paused (R63): `onApproval: 'deny'` decides in the send's
 * own step, `'hold'` leaves the pause as it is.
 */
import { describe, it } from 'vitest'
import {
  C,
  checkFold,
  checkRow,
  durable,
  type FoldRow,
  q,
  type Row,
  S,
  steer,
  turn,
} from '../support/machineFixtures.js'
import {
  deniedResultOf,
  deny,
  denyingFollowup,
  denyingInject,
  denyingSteer,
  inTools,
  paused,
  pausedOn,
  ran,
  twoCalls,
} from '../support/pauseFixtures.js'

const deniedBy = (id: string, callId = 'c1') =>
  durable('approval/decision', {
    turn: 1,
    step: 1,
    callId,
    index: callId === 'c2' ? 1 : 0,
    decision: 'denied',
    source: { kind: 'user' },
    reason: id,
    byMessage: id,
  })
const deniedState = (reason: string, patch: Record<string, unknown> = {}) => ({
  status: 'running' as const,
  activity: turn({
    phase: 'tools',
    draft: twoCalls,
    approvals: ['denied', undefined],
    toolResults: 1,
    outcomes: [{ result: deniedResultOf('c1', reason), concluded: false }],
  }),
  ...patch,
})

describe("sends while paused (R63): 'deny' decides in the send's own step, 'hold' waits", () => {
  const rows: readonly Row[] = [
    [
      "R63: a steer with onApproval 'deny' is staged, then denies with its text as the reason and its id",
      paused(),
      denyingSteer('s1'),
      [
        'enqueue(s1,steering)',
        deniedBy('s1'),
        'running',
        'tool/end(c1,DENIED)',
        'tool/call(shell)',
        'tool/result(c1,DENIED)',
      ],
      deniedState('s1', { outbox: [S('s1')] }),
    ],
    [
      "R63: a followup with onApproval 'deny' denies, then is queued for the next turn",
      paused(),
      denyingFollowup('f1'),
      [
        'enqueue(f1,queued)',
        deniedBy('f1'),
        'running',
        'tool/end(c1,DENIED)',
        'tool/call(shell)',
        'tool/result(c1,DENIED)',
      ],
      deniedState('f1', { queue: [q('f1')], waking: 1 }),
    ],
    [
      "R63: an inject with onApproval 'deny' is staged as context and denies",
      paused(),
      denyingInject('i1'),
      [deniedBy('i1'), 'running', 'tool/end(c1,DENIED)', 'tool/call(shell)', 'tool/result(c1,DENIED)'],
      deniedState('i1', { outbox: [C('i1')] }),
    ],
    [
      "R63: 'deny' denies every approval pending at that moment, in model order, each naming the send",
      pausedOn(['pending', 'pending']),
      denyingSteer('s1'),
      [
        'enqueue(s1,steering)',
        deniedBy('s1'),
        'tool/end(c1,DENIED)',
        'tool/call(shell)',
        'tool/result(c1,DENIED)',
        deniedBy('s1', 'c2'),
        'running',
        'tool/end(c2,DENIED)',
        'tool/call(read)',
        'tool/result(c2,DENIED)',
        'dequeue(s1)',
        'steering(s1)',
        'step/end(1.1)',
        'step-hook#1(1.2)',
      ],
      { status: 'running', activity: turn({ step: 2, phase: 'step-hook', stepOpen: false }) },
    ],
    [
      "R63: 'hold' (the default) changes nothing about the pause: the steer waits in the outbox",
      paused(),
      steer('s1'),
      ['enqueue(s1,steering)'],
      { outbox: [S('s1')] },
    ],
    [
      "R63: 'deny' with no approval pending is an ordinary send",
      inTools({ approvals: [undefined, undefined] }),
      denyingSteer('s1'),
      ['enqueue(s1,steering)'],
      { outbox: [S('s1')] },
    ],
  ]
  it.each(rows)('%s', checkRow)

  const folds: readonly FoldRow[] = [
    [
      "R63/R20b: a 'deny' steer after the other calls answered reaches the next request with the DENIED result: one request",
      paused(),
      [ran(1, 'c2'), denyingSteer('s1')],
      [
        'tool/end(c2)',
        'enqueue(s1,steering)',
        'approval/decision(denied,s1)',
        'running',
        'tool/end(c1,DENIED)',
        'tool/call(shell)',
        'tool/result(c1,DENIED)',
        'tool/call(read)',
        'tool/result(c2)',
        'dequeue(s1)',
        'steering(s1)',
        'step/end(1.1)',
        'step-hook#1(1.2)',
      ],
      { status: 'running', activity: turn({ step: 2, phase: 'step-hook', stepOpen: false }) },
    ],
    [
      'R63/R20b: a steer held across the pause is drained after the decision, before step/end',
      paused(),
      [steer('s1'), ran(1, 'c2'), deny('c1')],
      [
        'enqueue(s1,steering)',
        'tool/end(c2)',
        'approval/decision(denied)',
        'running',
        'tool/end(c1,DENIED)',
        'tool/call(shell)',
        'tool/result(c1,DENIED)',
        'tool/call(read)',
        'tool/result(c2)',
        'dequeue(s1)',
        'steering(s1)',
        'step/end(1.1)',
        'step-hook#1(1.2)',
      ],
      { status: 'running', activity: turn({ step: 2, phase: 'step-hook', stepOpen: false }) },
    ],
  ]
  it.each(folds)('%s', checkFold)
})
