/** Table tests of `goalTrack.ts`: what a goal controller knows, and when a round is queued (R32–R34). */
import { describe, expect, it } from 'vitest'
import { GoalEventError } from '../../src/goals/errors.js'
import {
  type GoalTrack,
  type GoalTrackEffect,
  type GoalTrackEvent,
  nextGoalTrack,
} from '../../src/goals/goalTrack.js'
import { changeEvent, ev, goal, H, id, roundEvent, track, turnStart, view } from '../support/goalFixtures.js'

type Row = readonly [
  name: string,
  before: GoalTrack,
  event: GoalTrackEvent,
  expected: { readonly track: GoalTrack; readonly effects: readonly GoalTrackEffect[] },
]

const active = goal()
const paused = goal({ revision: 2, phase: 'paused' })

describe('nextGoalTrack: the transcript (R34)', () => {
  const rows: readonly Row[] = [
    [
      'R34: a round-0 change sets the goal and is published',
      track(),
      ev({ type: 'transcript', event: changeEvent(1, active) }),
      { track: track({ durable: view(active) }), effects: [{ kind: 'publish' }] },
    ],
    [
      'R32: our change reaching the transcript is no longer pending; other changes stay',
      track({ pending: [active, paused] }),
      ev({ type: 'transcript', event: changeEvent(1, active) }),
      { track: track({ durable: view(active), pending: [paused] }), effects: [{ kind: 'publish' }] },
    ],
    [
      'R34: the next round counts',
      track({ durable: view(active, 1) }),
      ev({ type: 'transcript', event: roundEvent(5, 2) }),
      { track: track({ durable: view(active, 2) }), effects: [{ kind: 'publish' }] },
    ],
  ]
  it.each(rows)('%s', (_name, before, event, expected) => {
    expect(nextGoalTrack(before, event)).toStrictEqual(expected)
  })

  it('R34: an event the fold refuses is skipped and reported; the track stays', () => {
    const before = track({ durable: view(active, 1) })
    const step = nextGoalTrack(before, ev({ type: 'transcript', event: roundEvent(5, 3) }))
    expect(step.track).toBe(before)
    expect(step.effects).toHaveLength(1)
    const [effect] = step.effects
    expect(effect?.kind).toBe('report')
    expect(effect?.kind === 'report' && effect.error).toBeInstanceOf(GoalEventError)
  })
})

describe('nextGoalTrack: changes, arming and rounds (R32)', () => {
  const rows: readonly Row[] = [
    [
      'R32: a change is pending while it is injected',
      track({ pending: [active] }),
      ev({ type: 'stage', change: paused }),
      { track: track({ pending: [active, paused] }), effects: [] },
    ],
    [
      'R32: a change whose inject threw is not pending',
      track({ pending: [active, paused] }),
      ev({ type: 'unstage', change: paused }),
      { track: track({ pending: [active] }), effects: [] },
    ],
    [
      'R32: a user cancel disarms',
      track(),
      ev({ type: 'disarm' }),
      { track: track({ armed: false }), effects: [] },
    ],
    [
      'R32: create() and resume() arm',
      track({ armed: false }),
      ev({ type: 'arm' }),
      { track: track(), effects: [] },
    ],
    [
      'R32: a round due while a human prompt waits is owed',
      track({ durable: view(active) }),
      ev({ type: 'owe' }),
      { track: track({ durable: view(active), owed: true }), effects: [] },
    ],
    [
      'R32: a round due with no human prompt waiting is queued (the next round), and no longer owed',
      track({ durable: view(active, 1), owed: true }),
      ev({ type: 'continue' }),
      {
        track: track({ durable: view(active, 1) }),
        effects: [{ kind: 'queue-round', goal: active, round: 2 }],
      },
    ],
    [
      'R32: a round due at the cap blocks the goal instead',
      track({ durable: view(active, 3) }),
      ev({ type: 'continue' }),
      { track: track({ durable: view(active, 3) }), effects: [{ kind: 'block', goal: active, rounds: 3 }] },
    ],
    [
      'R32: a goal without a cap never reaches it',
      track({ durable: view(goal({ maxRounds: null }), 99) }),
      ev({ type: 'continue' }),
      {
        track: track({ durable: view(goal({ maxRounds: null }), 99) }),
        effects: [{ kind: 'queue-round', goal: goal({ maxRounds: null }), round: 100 }],
      },
    ],
    [
      'R32: the pending change counts: a round of the goal just created is round 1',
      track({ durable: view(goal({ goalId: H }), 2), pending: [active] }),
      ev({ type: 'continue' }),
      {
        track: track({ durable: view(goal({ goalId: H }), 2), pending: [active] }),
        effects: [{ kind: 'queue-round', goal: active, round: 1 }],
      },
    ],
    [
      'R32: the queued round is remembered until it leaves the inbox',
      track({ durable: view(active) }),
      ev({ type: 'queued', id: id('m1') }),
      { track: track({ durable: view(active), continuationId: id('m1') }), effects: [] },
    ],
    [
      'R32: the queued round left the inbox (dequeued or discarded)',
      track({ continuationId: id('m1') }),
      ev({ type: 'left', ids: [id('m0'), id('m1')] }),
      { track: track(), effects: [] },
    ],
  ]
  it.each(rows)('%s', (_name, before, event, expected) => {
    expect(nextGoalTrack(before, event)).toStrictEqual(expected)
  })
})

describe('nextGoalTrack: events that change nothing return the same track', () => {
  const rows: readonly (readonly [name: string, before: GoalTrack, event: GoalTrackEvent])[] = [
    [
      'an event the fold ignores',
      track({ durable: view(active) }),
      ev({ type: 'transcript', event: turnStart }),
    ],
    [
      'unstage of a change not pending',
      track({ pending: [active] }),
      ev({ type: 'unstage', change: paused }),
    ],
    ['arm when armed', track(), ev({ type: 'arm' })],
    ['disarm when disarmed', track({ armed: false }), ev({ type: 'disarm' })],
    ['owe when owed', track({ durable: view(active), owed: true }), ev({ type: 'owe' })],
    ['continue with no goal', track(), ev({ type: 'continue' })],
    ['continue while paused', track({ durable: view(paused) }), ev({ type: 'continue' })],
    ['continue while disarmed', track({ durable: view(active), armed: false }), ev({ type: 'continue' })],
    [
      'continue while a round is queued',
      track({ durable: view(active), continuationId: id('m1') }),
      ev({ type: 'continue' }),
    ],
    [
      'other messages leaving the inbox',
      track({ continuationId: id('m1') }),
      ev({ type: 'left', ids: [id('m2')] }),
    ],
    ['messages leaving with no round queued', track(), ev({ type: 'left', ids: [id('m2')] })],
  ]
  it.each(rows)('%s', (_name, before, event) => {
    const step = nextGoalTrack(before, event)
    expect(step.track).toBe(before)
    expect(step.effects).toStrictEqual([])
  })
})
