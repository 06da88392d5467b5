/**
 * Table tests of `worker/workerState.ts`: when a worker scans for sessions with work, which it
 * takes, and what it does when one is let go or it closes (R57).
 */
import { describe, expect, it } from 'vitest'
import {
  initialWorkerState,
  type WorkerEffect,
  type WorkerInput,
  type WorkerState,
  workerTransition,
} from '../../../src/postgres/worker/workerState.js'

const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}

/** A frozen state: two slots, a 1000 ms poll, a scan scheduled, nothing driven unless patched. */
const at = (patch: Partial<WorkerState> = {}): WorkerState =>
  deepFreeze({ ...initialWorkerState(2, 1_000), timer: true, ...patch })

const setTimer = (delay: number): WorkerEffect => ({ kind: 'set-timer', delay })
const CLEAR: WorkerEffect = { kind: 'clear-timer' }
const fired = (remembered = 0): WorkerInput => ({ type: 'timer-fired', remembered })
const found = (id: string, unchanged = false): WorkerInput => ({ type: 'found', id, inboxSeq: 4, unchanged })
const done = (id: string, quiet = true): WorkerInput => ({ type: 'session-done', id, quiet })

type Row = readonly [
  name: string,
  before: WorkerState,
  input: WorkerInput,
  effects: readonly WorkerEffect[],
  after: Partial<WorkerState>,
]

const check = (...[, before, input, effects, after]: Row): void => {
  const step = workerTransition(before, deepFreeze(input))
  expect(step.effects).toStrictEqual(effects)
  expect(step.state).toStrictEqual({ ...before, ...after })
}

describe('workerTransition: scans (R57)', () => {
  const rows: readonly Row[] = [
    [
      'R57: a worker scans as soon as it starts',
      at({ timer: false }),
      { type: 'started' },
      [setTimer(0)],
      { timer: true },
    ],
    [
      'R57: a scan asks for a slot each and for the sessions it remembers',
      at(),
      fired(3),
      [{ kind: 'find', limit: 5 }],
      { timer: false, scan: 'scanning' },
    ],
    [
      'R57: a full worker asks for nothing and scans again at the next poll',
      at({ driven: ['a', 'b'] }),
      fired(),
      [setTimer(1_000)],
      {},
    ],
    [
      'R57: after a scan, the next one at the next poll',
      at({ timer: false, scan: 'scanning' }),
      { type: 'scan-done' },
      [setTimer(1_000)],
      { timer: true, scan: 'idle' },
    ],
    [
      'R55: a scan asked for during a scan runs at once after it',
      at({ timer: false, scan: 'again' }),
      { type: 'scan-done' },
      [setTimer(0)],
      { timer: true, scan: 'idle' },
    ],
    [
      'R57: a scan that ends with a scan scheduled meanwhile schedules nothing more',
      at({ scan: 'scanning' }),
      { type: 'scan-done' },
      [],
      { scan: 'idle' },
    ],
    [
      'R57: a timer that fires during a scan keeps the wish for another scan',
      at({ scan: 'again' }),
      fired(),
      [{ kind: 'find', limit: 2 }],
      { timer: false },
    ],
    [
      'R55: a request into a session it does not drive scans now',
      at(),
      { type: 'notified', sessionId: 'x' },
      [CLEAR, setTimer(0)],
      {},
    ],
    [
      'R55: …and schedules a scan when none is',
      at({ timer: false }),
      { type: 'notified', sessionId: 'x' },
      [setTimer(0)],
      { timer: true },
    ],
    [
      'R55: …and, during a scan, asks for another after it',
      at({ scan: 'scanning' }),
      { type: 'notified', sessionId: 'x' },
      [],
      { scan: 'again' },
    ],
  ]
  it.each(rows)('%s', check)
})

describe('workerTransition: sessions (R57)', () => {
  const rows: readonly Row[] = [
    [
      'R57: a session found is served',
      at({ scan: 'scanning' }),
      found('a'),
      [{ kind: 'serve', id: 'a', inboxSeq: 4 }],
      { driven: ['a'] },
    ],
    [
      'R57: a session let go frees its slot and the worker scans again',
      at({ timer: false, driven: ['a', 'b'] }),
      done('a', false),
      [setTimer(0)],
      { timer: true, driven: ['b'] },
    ],
    [
      'R57: a full worker that drove a session until quiet looks at once for the sessions it skipped',
      at({ driven: ['a', 'b'] }),
      done('a'),
      [CLEAR, setTimer(0)],
      { driven: ['b'] },
    ],
    [
      'R57: a full worker that did not get to drive a session (held elsewhere) waits for the scan scheduled',
      at({ driven: ['a', 'b'] }),
      done('a', false),
      [],
      { driven: ['b'] },
    ],
    [
      'R57: a session let go by a worker that was not full waits for the scan scheduled',
      at({ driven: ['a'] }),
      done('a'),
      [],
      { driven: [] },
    ],
    [
      'R57: close() clears the scan scheduled',
      at({ driven: ['a'] }),
      { type: 'close' },
      [CLEAR],
      { closed: true, timer: false },
    ],
    ['R57: close() with no scan scheduled', at({ timer: false }), { type: 'close' }, [], { closed: true }],
    [
      'R57: a session let go after close() schedules nothing',
      at({ closed: true, timer: false, driven: ['a'] }),
      done('a'),
      [],
      { driven: [] },
    ],
    [
      'R57: a timer that fires after close() scans nothing',
      at({ closed: true }),
      fired(),
      [],
      { timer: false },
    ],
  ]
  it.each(rows)('%s', check)
})

describe('workerTransition: inputs that change nothing return the same state', () => {
  const ignored: readonly (readonly [name: string, before: WorkerState, input: WorkerInput])[] = [
    ['R57: a session it drives already', at({ driven: ['a'] }), found('a')],
    ['R57: a session it drove until quiet whose journal did not change', at(), found('a', true)],
    ['R57: a session found when every slot is taken', at({ driven: ['a', 'b'] }), found('c')],
    ['R57: a session found after close()', at({ closed: true }), found('a')],
    ['R55: a request into a session it drives', at({ driven: ['a'] }), { type: 'notified', sessionId: 'a' }],
    ['R55: a request after close()', at({ closed: true }), { type: 'notified', sessionId: 'x' }],
    [
      'R55: a request during a scan that will run again',
      at({ scan: 'again' }),
      { type: 'notified', sessionId: 'x' },
    ],
    ['R57: started with a scan scheduled', at(), { type: 'started' }],
    ['R57: a second close()', at({ closed: true, timer: false }), { type: 'close' }],
    ['R57: a timer after close() that was cleared', at({ closed: true, timer: false }), fired()],
  ]
  it.each(ignored)('%s', (_, before, input) => {
    const step = workerTransition(before, deepFreeze(input))
    expect(step.state).toBe(before)
    expect(step.effects).toStrictEqual([])
  })
})
