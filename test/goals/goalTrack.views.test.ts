/** Tests of what a goal track tells: the view, whether a round may be queued, a round's standing (R32). */
import { describe, expect, it } from 'vitest'
import type { GoalView } from '../../src/contracts/goals.js'
import type { GoalSource } from '../../src/contracts/messages.js'
import { type GoalTrack, goalView, mayContinue, roundStanding } from '../../src/goals/goalTrack.js'
import { deepFreeze } from '../support/deepFreeze.js'
import { G, goal, H, id, track, view } from '../support/goalFixtures.js'

const active = goal()
const paused = goal({ revision: 2, phase: 'paused' })

describe('what the track tells (R32)', () => {
  const cleared = deepFreeze({ goalId: G, revision: 2, cleared: true as const })
  const views: readonly (readonly [name: string, before: GoalTrack, expected: GoalView])[] = [
    ['the transcript’s goal when nothing is pending', track({ durable: view(active, 2) }), view(active, 2)],
    [
      'the last pending change, with the goal’s rounds',
      track({ durable: view(active, 2), pending: [paused] }),
      view(paused, 2),
    ],
    [
      'a pending goal of another id starts at round 0',
      track({ durable: view(goal({ goalId: H }), 2), pending: [active] }),
      view(active, 0),
    ],
    [
      'no goal once a clear is pending',
      track({ durable: view(active, 2), pending: [cleared] }),
      view(undefined),
    ],
  ]
  it.each(views)('goalView: %s', (_name, before, expected) => {
    expect(goalView(before)).toStrictEqual(expected)
  })

  it('R32: a round may be queued only for an active, armed goal with none queued', () => {
    expect(mayContinue(track({ durable: view(active) }))).toBe(true)
    expect(mayContinue(track({ durable: view(paused) }))).toBe(false)
    expect(mayContinue(track({ durable: view(active), armed: false }))).toBe(false)
    expect(mayContinue(track({ durable: view(active), continuationId: id('m1') }))).toBe(false)
  })

  const source = (patch: Partial<GoalSource> = {}): GoalSource =>
    deepFreeze({ kind: 'goal', goalId: G, revision: 1, round: 2, ...patch })
  const standings: readonly (readonly [string, GoalTrack, GoalSource, 'current' | 'stale' | 'dead'])[] = [
    ['the next round of the live goal is current', track({ durable: view(active, 1) }), source(), 'current'],
    [
      'a round at an older revision is stale',
      track({ durable: view(goal({ revision: 2 }), 1) }),
      source(),
      'stale',
    ],
    ['a round that is not the next is stale', track({ durable: view(active, 2) }), source(), 'stale'],
    ['a round of another goal is dead', track({ durable: view(active, 1) }), source({ goalId: H }), 'dead'],
    ['a round of a paused goal is dead', track({ durable: view(paused, 1) }), source(), 'dead'],
    ['a round while disarmed is dead', track({ durable: view(active, 1), armed: false }), source(), 'dead'],
  ]
  it.each(standings)('roundStanding: %s', (_name, before, s, expected) => {
    expect(roundStanding(before, s)).toBe(expected)
  })
})
