/**
 * The goal fold (R34): `foldGoal(events)`, `goalStep`, and the `goalState()` operator, on
 * hand-built transcripts. Round-0 changes set or clear the goal; positive rounds must be the next
 * round of the active goal at its revision.
 */
import { from, Subject, toArray } from 'rxjs'
import { describe, expect, it } from 'vitest'
import {
  type ContentBlock,
  createAgent,
  createGoalController,
  foldGoal,
  type GoalChange,
  GoalEventError,
  type GoalState,
  type GoalView,
  goalState,
  goalStep,
  type MessageSource,
  renderGoalChange,
  type SessionEvent,
} from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'

const A = '01GOALAAAAAAAAAAAAAAAAAAAA'
const B = '01GOALBBBBBBBBBBBBBBBBBBBB'

const text = (t: string): ContentBlock[] => [{ type: 'text', text: t }]

/** Builds a transcript; each helper appends one event with the next seq. */
const transcript = () => {
  const events: SessionEvent[] = []
  const push = (type: SessionEvent['type'], data: unknown) => {
    events.push({ seq: events.length + 1, type, data } as SessionEvent)
    return api
  }
  const api = {
    events,
    change: (change: GoalChange) =>
      push('user/message', {
        content: text(renderGoalChange(change)),
        source: { kind: 'goal', goalId: change.goalId, revision: change.revision, round: 0, change },
      }),
    round: (goalId: string, revision: number, round: number) =>
      push('user/message', {
        content: text(`continue (round ${round})`),
        source: { kind: 'goal', goalId, revision, round },
      }),
    user: (t: string, source: MessageSource = { kind: 'user' }) =>
      push('user/message', { content: text(t), source }),
    /** A whole turn around a prompt, as the agent writes it. */
    turn: (turn: number, prompt: () => void) => {
      push('turn/start', { turn, trigger: { kind: 'message', source: { kind: 'user' } } })
      prompt()
      push('step/start', { turn, step: 1 })
      push('assistant/message', { turn, step: 1, content: text('ok') })
      push('step/end', { turn, step: 1 })
      return push('turn/end', { turn, reason: { kind: 'completed' } })
    },
    other: (type: SessionEvent['type'], data: unknown) => push(type, data),
  }
  return api
}

const goal = (patch: Partial<GoalState> = {}): GoalState => ({
  goalId: A,
  revision: 1,
  objective: 'ship it',
  phase: 'active',
  maxRounds: 3,
  ...patch,
})

const NONE: GoalView = { goal: undefined, rounds: 0 }

/** Folding must throw a GoalEventError naming `seq`. */
const expectFoldThrowsAt = (events: readonly SessionEvent[], seq: number, detail?: RegExp) => {
  let error: unknown
  try {
    foldGoal(events)
  } catch (e) {
    error = e
  }
  expect(error).toBeInstanceOf(GoalEventError)
  expect((error as GoalEventError).seq).toBe(seq)
  expect((error as GoalEventError).message).toContain(`seq ${seq}`)
  if (detail) expect((error as GoalEventError).message).toMatch(detail)
}

describe('foldGoal: goal changes (R34)', () => {
  it('R34: an empty transcript, or one without goal events, has no goal and no rounds', () => {
    expect(foldGoal([])).toEqual(NONE)
    const t = transcript()
    t.turn(1, () => t.user('hi'))
    expect(foldGoal(t.events)).toEqual(NONE)
  })

  it('R34: create sets the goal with 0 rounds', () => {
    const t = transcript().change(goal())
    expect(foldGoal(t.events)).toEqual({ goal: goal(), rounds: 0 })
  })

  it('R34: rounds count up; edits keep the rounds of the same goal id', () => {
    const t = transcript().change(goal())
    t.turn(1, () => t.round(A, 1, 1))
    expect(foldGoal(t.events)).toEqual({ goal: goal(), rounds: 1 })
    t.change(goal({ revision: 2, objective: 'ship it twice' }))
    t.turn(2, () => t.round(A, 2, 2))
    t.change(goal({ revision: 3, objective: 'ship it twice', maxRounds: 5 }))
    expect(foldGoal(t.events)).toEqual({
      goal: goal({ revision: 3, objective: 'ship it twice', maxRounds: 5 }),
      rounds: 2,
    })
    t.turn(3, () => t.round(A, 3, 3))
    expect(foldGoal(t.events).rounds).toBe(3)
  })

  it('R34: pause and resume change the phase and keep the rounds', () => {
    const t = transcript().change(goal())
    t.turn(1, () => t.round(A, 1, 1))
    t.change(goal({ revision: 2, phase: 'paused' }))
    expect(foldGoal(t.events)).toEqual({ goal: goal({ revision: 2, phase: 'paused' }), rounds: 1 })
    t.change(goal({ revision: 3 }))
    expect(foldGoal(t.events)).toEqual({ goal: goal({ revision: 3 }), rounds: 1 })
    t.turn(2, () => t.round(A, 3, 2))
    expect(foldGoal(t.events)).toEqual({ goal: goal({ revision: 3 }), rounds: 2 })
  })

  it('R34: block carries its reason; complete ends the goal', () => {
    const t = transcript().change(goal({ maxRounds: 1 }))
    t.turn(1, () => t.round(A, 1, 1))
    const blocked = goal({
      revision: 2,
      maxRounds: 1,
      phase: 'blocked',
      blocked: { code: 'round-cap-reached', message: '1 rounds run' },
    })
    t.change(blocked)
    expect(foldGoal(t.events)).toEqual({ goal: blocked, rounds: 1 })
    t.change(goal({ revision: 3, maxRounds: 1, phase: 'complete' }))
    expect(foldGoal(t.events)).toEqual({
      goal: goal({ revision: 3, maxRounds: 1, phase: 'complete' }),
      rounds: 1,
    })
  })

  it('R34: a clear tombstone removes the goal and its rounds', () => {
    const t = transcript().change(goal())
    t.turn(1, () => t.round(A, 1, 1))
    t.change({ goalId: A, revision: 2, cleared: true })
    expect(foldGoal(t.events)).toEqual(NONE)
  })

  it('R34: a new goal id restarts the rounds', () => {
    const t = transcript().change(goal())
    t.turn(1, () => t.round(A, 1, 1))
    t.turn(2, () => t.round(A, 1, 2))
    t.change(goal({ revision: 2, phase: 'complete' }))
    t.change(goal({ goalId: B }))
    expect(foldGoal(t.events)).toEqual({ goal: goal({ goalId: B }), rounds: 0 })
    t.turn(3, () => t.round(B, 1, 1))
    expect(foldGoal(t.events)).toEqual({ goal: goal({ goalId: B }), rounds: 1 })
  })

  it('R34: after a clear, the next goal starts from round 1', () => {
    const t = transcript().change(goal())
    t.turn(1, () => t.round(A, 1, 1))
    t.change({ goalId: A, revision: 2, cleared: true })
    t.change(goal({ goalId: B }))
    t.turn(2, () => t.round(B, 1, 1))
    expect(foldGoal(t.events)).toEqual({ goal: goal({ goalId: B }), rounds: 1 })
  })

  it('R34: reads only user/message (goal-looking steering and triggers are ignored)', () => {
    const t = transcript().change(goal())
    const goalSource = { kind: 'goal', goalId: A, revision: 1, round: 5 }
    t.other('steering/message', {
      turn: 1,
      content: text(renderGoalChange(goal())),
      source: goalSource,
      id: 'x',
    })
    t.other('steering/message', {
      turn: 1,
      content: text('<goal_state>junk'),
      source: { kind: 'user' },
      id: 'y',
    })
    t.other('turn/start', { turn: 1, trigger: { kind: 'message', source: goalSource } })
    t.other('turn/end', { turn: 1, reason: { kind: 'completed' } })
    expect(foldGoal(t.events)).toEqual({ goal: goal(), rounds: 0 })
  })

  it('R34: user messages from other sources leave the goal alone', () => {
    const t = transcript().change(goal())
    t.user('hello')
    t.user('tool context', { kind: 'tool', tool: 'search' })
    t.user('plugin context', { kind: 'plugin', plugin: 'p' })
    expect(foldGoal(t.events)).toEqual({ goal: goal(), rounds: 0 })
  })

  it('R34: goalStep returns the same view object for events that change nothing', () => {
    const t = transcript().change(goal())
    const view = foldGoal(t.events)
    t.user('hello')
    t.other('step/start', { turn: 1, step: 1 })
    for (const event of t.events.slice(1)) expect(goalStep(view, event)).toBe(view)
  })

  it('R34: the fold is pure: it does not mutate its input and gives the same result twice', () => {
    const t = transcript().change(goal())
    t.turn(1, () => t.round(A, 1, 1))
    const frozen = Object.freeze(t.events.map((e) => structuredClone(e)))
    const before = JSON.stringify(frozen)
    expect(foldGoal(frozen)).toEqual(foldGoal(frozen))
    expect(JSON.stringify(frozen)).toBe(before)
  })
})

describe('foldGoal: positive rounds that do not fold (R34)', () => {
  it('R34: a round that skips ahead is not the next round: throws naming its seq', () => {
    const t = transcript().change(goal())
    t.round(A, 1, 2)
    expectFoldThrowsAt(t.events, 2, /next round/)
  })

  it('R34: a repeated round is not the next round: throws', () => {
    const t = transcript().change(goal())
    t.round(A, 1, 1)
    t.round(A, 1, 1)
    expectFoldThrowsAt(t.events, 3, /next round/)
  })

  it('R34: round 1 of an edited goal that already ran rounds is not the next round: throws', () => {
    const t = transcript().change(goal())
    t.round(A, 1, 1)
    t.change(goal({ revision: 2 }))
    t.round(A, 2, 1)
    expectFoldThrowsAt(t.events, 4, /next round/)
  })

  it('R34: a round of another goal throws', () => {
    const t = transcript().change(goal())
    t.round(B, 1, 1)
    expectFoldThrowsAt(t.events, 2, new RegExp(B))
  })

  it('R34: a round of a goal that was replaced throws (rounds of the old id)', () => {
    const t = transcript().change(goal())
    t.round(A, 1, 1)
    t.change(goal({ revision: 2, phase: 'complete' }))
    t.change(goal({ goalId: B }))
    t.round(A, 2, 2)
    expectFoldThrowsAt(t.events, 5)
  })

  it('R34: a round at a stale revision throws', () => {
    const t = transcript().change(goal())
    t.round(A, 1, 1)
    t.change(goal({ revision: 2, objective: 'changed' }))
    t.round(A, 1, 2)
    expectFoldThrowsAt(t.events, 4, /revision/)
  })

  it('R34: a round at a future revision throws', () => {
    const t = transcript().change(goal())
    t.round(A, 2, 1)
    expectFoldThrowsAt(t.events, 2, /revision/)
  })

  it.each<['paused' | 'blocked' | 'complete', Partial<GoalState>]>([
    ['paused', { phase: 'paused' }],
    ['blocked', { phase: 'blocked', blocked: { code: 'stuck', message: 'needs input' } }],
    ['complete', { phase: 'complete' }],
  ])('R34: a round while the goal is %s throws', (phase, patch) => {
    const t = transcript().change(goal())
    t.round(A, 1, 1)
    t.change(goal({ revision: 2, ...patch }))
    t.round(A, 2, 2)
    expectFoldThrowsAt(t.events, 4, new RegExp(phase))
  })

  it('R34: a round with no goal at all, or after a clear, throws', () => {
    const t = transcript().round(A, 1, 1)
    expectFoldThrowsAt(t.events, 1)
    const u = transcript().change(goal())
    u.change({ goalId: A, revision: 2, cleared: true })
    u.round(A, 2, 1)
    expectFoldThrowsAt(u.events, 3)
  })

  it('R33/R34: a change that does not decode makes the fold throw', () => {
    const t = transcript().change(goal())
    t.user(renderGoalChange(goal({ revision: 2 })))
    expectFoldThrowsAt(t.events, 2, /attribution/)
  })
})

describe('goalState() operator (R34)', () => {
  it('R34: emits the empty view first, then once per change (not for other events)', async () => {
    const t = transcript()
    t.turn(1, () => t.user('hi'))
    t.change(goal())
    t.user('context', { kind: 'plugin', plugin: 'p' })
    t.turn(2, () => t.round(A, 1, 1))
    t.change(goal({ revision: 2, phase: 'paused' }))
    t.change({ goalId: A, revision: 3, cleared: true })
    t.user('after')
    const views = await new Promise<GoalView[]>((resolve, reject) =>
      from(t.events).pipe(goalState(), toArray()).subscribe({ next: resolve, error: reject }),
    )
    expect(views).toEqual([
      NONE,
      { goal: goal(), rounds: 0 },
      { goal: goal(), rounds: 1 },
      { goal: goal({ revision: 2, phase: 'paused' }), rounds: 1 },
      NONE,
    ])
  })

  it('R34: each emission equals foldGoal of the events seen so far', () => {
    const t = transcript().change(goal())
    t.turn(1, () => t.round(A, 1, 1))
    t.change(goal({ revision: 2, objective: 'more' }))
    t.turn(2, () => t.round(A, 2, 2))
    const input = new Subject<SessionEvent>()
    const seen: GoalView[] = []
    input.pipe(goalState()).subscribe((v) => seen.push(v))
    for (const [i, event] of t.events.entries()) {
      input.next(event)
      expect(seen.at(-1)).toEqual(foldGoal(t.events.slice(0, i + 1)))
    }
  })

  it('R34: errors with GoalEventError naming the seq of a bad event, after the good views', () => {
    const t = transcript().change(goal())
    t.round(A, 1, 3)
    const seen: GoalView[] = []
    let error: unknown
    let completed = false
    from(t.events)
      .pipe(goalState())
      .subscribe({
        next: (v) => seen.push(v),
        error: (e: unknown) => {
          error = e
        },
        complete: () => {
          completed = true
        },
      })
    expect(seen).toEqual([NONE, { goal: goal(), rounds: 0 }])
    expect(error).toBeInstanceOf(GoalEventError)
    expect((error as GoalEventError).seq).toBe(2)
    expect(completed).toBe(false)
  })

  it('R34: completion passes through', () => {
    let completed = false
    from(transcript().change(goal()).events)
      .pipe(goalState())
      .subscribe({
        complete: () => {
          completed = true
        },
      })
    expect(completed).toBe(true)
  })

  it('R32/R34: over a live agent transcript$, the last view equals the controller view at rest', async () => {
    const agent = createAgent({ model: scriptedModel(['a1', 'a2']) })
    const seen: GoalView[] = []
    const errors: unknown[] = []
    agent.transcript$.pipe(goalState()).subscribe({ next: (v) => seen.push(v), error: (e) => errors.push(e) })
    const goals = createGoalController(agent)
    goals.create({ objective: 'two rounds', maxRounds: 2 })
    await agent.whenIdle()
    expect(errors).toEqual([])
    expect(seen.map((v) => [v.goal?.revision, v.goal?.phase, v.rounds])).toEqual([
      [undefined, undefined, 0],
      [1, 'active', 0],
      [1, 'active', 1],
      [1, 'active', 2],
      [2, 'blocked', 2],
    ])
    expect(seen.at(-1)).toEqual(goals.view())
    expect(seen.at(-1)).toEqual(foldGoal(agent.session.events))
    await agent.dispose()
  })
})
