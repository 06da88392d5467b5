/**
 * What the goal controller does with what it cannot apply (R32–R34): a transcript event the fold
 * refuses, a `continuation` callback that fails. It runs inside the agent's subscribers, where a
 * throw reaches RxJS's unhandled-error path (by default an uncaught exception: the process dies).
 * So it reports through `onError`, keeps its last good state, and goes on. Each test watches
 * RxJS's `config.onUnhandledError` and requires it never to fire.
 */
import { config } from 'rxjs'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  type AgentOptions,
  type ContentBlock,
  createAgent,
  createGoalController,
  foldGoal,
  GoalContinuationError,
  type GoalControllerError,
  type GoalControllerOptions,
  GoalEventError,
  type GoalState,
  InvalidInputError,
  type JsonValue,
  renderGoalChange,
  type SessionEvent,
} from '../../src/index.js'
import { type ScriptedReply, scriptedModel } from '../../src/testing.js'

const text = (t: string): ContentBlock[] => [{ type: 'text', text: t }]
const GOAL: GoalState = { goalId: 'g', revision: 1, objective: 'o', phase: 'active', maxRounds: 3 }
const change = (state: GoalState) => ({
  content: text(renderGoalChange(state)),
  source: {
    kind: 'goal',
    goalId: state.goalId,
    revision: state.revision,
    round: 0,
    change: state as JsonValue,
  },
})

/** What reached RxJS's unhandled-error path: with the default config, each would be a crash. */
let unhandled: unknown[] = []
let previous: typeof config.onUnhandledError
beforeEach(() => {
  unhandled = []
  previous = config.onUnhandledError
  config.onUnhandledError = (error) => unhandled.push(error)
})
afterEach(() => {
  config.onUnhandledError = previous
  vi.restoreAllMocks()
})
/** RxJS reports an unhandled error on a timer: let any that were raised arrive. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

/** An agent on `script` with a goal controller whose `onError` collects into `errors`. */
const setup = (
  script: readonly ScriptedReply[] = [],
  goalOptions: GoalControllerOptions = {},
  options: Omit<AgentOptions, 'model'> = {},
) => {
  const agent = createAgent({ ...options, model: scriptedModel(script) })
  const errors: GoalControllerError[] = []
  const goals = createGoalController(agent, {
    continuation: (_goal, round) => `go ${round}`,
    onError: (error) => errors.push(error),
    ...goalOptions,
  })
  return { agent, goals, errors }
}

describe('the goal controller never throws inside a subscriber (R32–R34)', () => {
  it('R33: the round-0 goal source without a change that used to kill the process is refused at inject', async () => {
    const { agent, goals, errors } = setup()
    const source = { kind: 'goal', goalId: 'g', revision: 0, round: 0 }
    expect(() => agent.inject({ content: text('x'), source })).toThrow(InvalidInputError)
    await settle()
    expect(unhandled).toEqual([])
    expect(errors).toEqual([])
    expect(agent.session.events).toEqual([])
    expect(goals.view()).toEqual({ goal: undefined, rounds: 0 })
  })

  it('R34: a round the fold refuses is reported with its seq and skipped; later goal events still work', async () => {
    const { agent, goals, errors } = setup(['one'])
    agent.inject({ content: text('go'), source: { kind: 'goal', goalId: 'nope', revision: 1, round: 3 } })
    await settle()
    expect(unhandled).toEqual([])
    expect(errors).toHaveLength(1)
    expect(errors[0]).toBeInstanceOf(GoalEventError)
    expect((errors[0] as GoalEventError).seq).toBe(1)
    expect(goals.view()).toEqual({ goal: undefined, rounds: 0 })
    // The transcript itself now breaks the fold (R34); the controller kept its last good state.
    expect(() => foldGoal(agent.session.events)).toThrow(GoalEventError)

    const goal = goals.create({ objective: 'o', maxRounds: 1 })
    await agent.whenIdle()
    expect(goals.view()).toMatchObject({ goal: { goalId: goal.goalId, phase: 'blocked' }, rounds: 1 })
    expect(goals.view().goal?.blocked?.code).toBe('round-cap-reached')
    expect(errors).toHaveLength(1)
    expect(unhandled).toEqual([])
  })

  it('R33: a goal change a promptSubmit hook rewrote is reported, not thrown; the goal stays as it was', async () => {
    const { agent, goals, errors } = setup(
      ['ok'],
      {},
      { hooks: { promptSubmit: () => ({ kind: 'allow', content: 'rewritten' }) } },
    )
    agent.followup(change(GOAL)) // valid at send, then admitted with other content
    await agent.whenIdle()
    await settle()
    expect(unhandled).toEqual([])
    expect(errors.map((e) => [e.name, (e as GoalEventError).seq])).toEqual([['GoalEventError', 2]])
    expect(errors[0]?.message).toMatch(/canonical rendering/)
    expect(goals.view()).toEqual({ goal: undefined, rounds: 0 })
  })

  it('R37: a history the fold refuses is reported while the controller is created; it keeps the last good state', async () => {
    const revised: GoalState = { ...GOAL, revision: 2, objective: 'changed' }
    const history: SessionEvent[] = [
      { seq: 1, type: 'user/message', data: change(GOAL) },
      { seq: 2, type: 'user/message', data: { ...change(revised), content: text('not the rendering') } },
    ] as SessionEvent[]
    const { goals, errors } = setup([], {}, { history })
    expect(errors.map((e) => (e as GoalEventError).seq)).toEqual([2])
    expect(goals.view()).toEqual({ goal: GOAL, rounds: 0 })
    await settle()
    expect(unhandled).toEqual([])
  })

  it.each<[string, () => unknown]>([
    [
      'throws an Error',
      () => {
        throw new Error('no text today')
      },
    ],
    [
      'throws a revoked Proxy',
      () => {
        const { proxy, revoke } = Proxy.revocable({}, {})
        revoke()
        throw proxy
      },
    ],
    ['returns a number', () => 42],
  ])(
    'R32: a continuation that %s blocks the goal (continuation-failed) and is reported; resume() tries again',
    async (_name, fail) => {
      let failing = false
      const continuation = (_goal: GoalState, round: number) => {
        if (round === 2 && failing) return fail() as string
        return `go ${round}`
      }
      const { agent, goals, errors } = setup(['one', 'two', 'three'], { continuation })
      failing = true
      // round 1 runs; round 2 fails inside the settled subscriber
      goals.create({ objective: 'o', maxRounds: 3 })
      await agent.whenIdle()
      await settle()
      expect(unhandled).toEqual([])
      expect(goals.view()).toMatchObject({
        goal: { phase: 'blocked', blocked: { code: 'continuation-failed' } },
        rounds: 1,
      })
      expect(errors).toHaveLength(1)
      expect(errors[0]).toBeInstanceOf(GoalContinuationError)
      expect((errors[0] as GoalContinuationError).round).toBe(2)
      expect(foldGoal(agent.session.events)).toEqual(goals.view())

      failing = false
      goals.resume()
      await agent.whenIdle()
      expect(goals.view()).toMatchObject({
        goal: { phase: 'blocked', blocked: { code: 'round-cap-reached' } },
        rounds: 3,
      })
      expect(errors).toHaveLength(1)
    },
  )
})

describe('where a controller without onError reports (R32)', () => {
  const badRound = { content: text('go'), source: { kind: 'goal', goalId: 'nope', revision: 1, round: 1 } }

  it("R34: to RxJS's config.onUnhandledError when the app set one, at once", () => {
    const agent = createAgent({ model: scriptedModel([]) })
    createGoalController(agent)
    agent.inject(badRound)
    // At once, from the controller: RxJS's own report of a throwing subscriber comes on a timer.
    expect(unhandled).toHaveLength(1)
    expect(unhandled[0]).toBeInstanceOf(GoalEventError)
  })

  it('R34: else to console.error, and nothing reaches the unhandled-error path', async () => {
    config.onUnhandledError = null
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const agent = createAgent({ model: scriptedModel([]) })
    const goals = createGoalController(agent)
    agent.inject(badRound)
    expect(logged).toHaveBeenCalledTimes(1)
    expect(logged.mock.calls[0]?.[0]).toBeInstanceOf(GoalEventError)
    expect(goals.view()).toEqual({ goal: undefined, rounds: 0 })
  })
})

describe('createGoalController options (R32)', () => {
  it.each<[string, unknown, string]>([
    ['a zero defaultMaxRounds', { defaultMaxRounds: 0 }, 'options.defaultMaxRounds'],
    ['a fractional defaultMaxRounds', { defaultMaxRounds: 1.5 }, 'options.defaultMaxRounds'],
    ['a continuation that is not a function', { continuation: 'go on' }, 'options.continuation'],
    ['an onError that is not a function', { onError: true }, 'options.onError'],
    ['an unknown key', { onErrors: () => {} }, 'options'],
  ])('R2: %s is refused when the controller is created', (_name, options, path) => {
    const agent = createAgent({ model: scriptedModel([]) })
    let error: unknown
    try {
      createGoalController(agent, options as GoalControllerOptions)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(InvalidInputError)
    expect((error as Error).message.startsWith(`createGoalController(): ${path}`)).toBe(true)
  })
})
