/** Table tests of `accept.ts`: routing of sends and injects (R4), the deferred wake (R6), R8, R29. */
import { describe, expect, it } from 'vitest'
import type { Input } from '../../src/machine/inputs.js'
import type { Output } from '../../src/machine/outputs.js'
import { reduce } from '../../src/machine/reduce.js'
import {
  betweenTurns,
  C,
  checkRow,
  claim,
  claiming,
  deepFreeze,
  durable,
  followup,
  idle,
  inject,
  live,
  make,
  msg,
  PLUGIN,
  parked,
  q,
  qt,
  type Row,
  S,
  show,
  steer,
  textFollowup,
  turning,
} from '../support/machineFixtures.js'

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
      'R3/R4: a string followup that waits behind a turn is queued as {id, text}; its enqueue carries the whole message',
      turning(),
      textFollowup('m1'),
      [live({ type: 'agent/inbox/enqueue', message: msg('m1'), placement: 'queued' })],
      { queue: [qt('m1')], waking: 1 },
    ],
    [
      'R3/R4: a string followup that waits behind other items is queued as {id, text}',
      idle({ queue: [q('m1')], wakeScheduled: true }),
      textFollowup('m2'),
      ['enqueue(m2,queued)'],
      { queue: [q('m1'), qt('m2')], waking: 2 },
    ],
    [
      'R3/R6: a string followup that the scheduled wake claims at once is kept whole',
      idle(),
      textFollowup('m1'),
      ['enqueue(m1,queued)', 'schedule wake'],
      { queue: [q('m1')], waking: 1, wakeScheduled: true },
    ],
    [
      'R8: a parked string send keeps its message (only waking string sends are compact)',
      idle(),
      { ...parked('p1'), text: 'p1' } as Input,
      ['enqueue(p1,queued)'],
      { queue: [q('p1', false)] },
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
      { queue: [msg('s1', PLUGIN)], waking: 1, wakeScheduled: true },
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
      [durable('user/message', msg('i1')), 'persist'],
      {},
    ],
    [
      'R4/R19, R36: an inject between turns is appended at once and flushed',
      betweenTurns(),
      inject('i1'),
      ['user(i1)', 'persist'],
      {},
    ],
    [
      'R29: a followup while dispose() unwinds is accepted, then discarded',
      turning({ abort: { cause: { kind: 'disposed' }, keepInbox: false } }, { disposal: 'disposing' }),
      followup('m2'),
      ['enqueue(m2,queued)', live({ type: 'agent/inbox/discard', messages: [msg('m2')], reason: 'dispose' })],
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
