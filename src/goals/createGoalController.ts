import { BehaviorSubject, distinctUntilChanged, type Observable } from 'rxjs'
import { ulid } from 'ulid'
import type { Agent } from '../contracts/agent.js'
import type { AgentEvent } from '../contracts/events.js'
import type { GoalChange, GoalState, GoalView } from '../contracts/goals.js'
import type { PromptDecision, PromptSubmitArgs } from '../contracts/hooks.js'
import type { AgentMessageId, GoalSource } from '../contracts/messages.js'
import { renderGoalChange } from '../messages/goalRender.js'
import { type AgentExtensions, extensionsOf } from '../runtime/extensions.js'
import { describeThrown, GoalContinuationError } from './errors.js'
import { NO_GOAL } from './foldGoal.js'
import { defaultContinuation, type GoalController, type GoalControllerOptions } from './goalController.js'
import {
  blockInputSchema,
  controllerOptionsSchema,
  createInputSchema,
  editInputSchema,
  parseGoalInput,
  parseRevision,
} from './goalInputs.js'
import {
  type GoalTrackEvent,
  goalView,
  mayContinue,
  NEW_TRACK,
  nextGoalTrack,
  roundStanding,
} from './goalTrack.js'
import { type GoalControllerError, reportGoalError } from './reportGoalError.js'
import { currentGoal, editedGoal, newGoal, reviseGoal } from './reviseGoal.js'

/**
 * Goals (R32): durable goal state in the transcript and continuation rounds. Every mutation is
 * injected as a round-0 `user/message` carrying the full new state; while the goal is active and
 * armed, each completed turn is followed by the next continuation prompt (a followup with
 * `round: n`), until the cap (then the goal blocks with `round-cap-reached`), a pause, block,
 * completion or clear, or a user cancel (which disarms). Human prompts go first: a continuation
 * is only queued when no human prompt waits, and one that would be admitted while a human prompt
 * waits (or that went stale) is blocked at `promptSubmit` and owed for later.
 *
 * It runs inside the agent's subscribers, so it never throws there: a transcript event the fold
 * refuses is skipped (the last good state stays) and a failing `continuation` blocks the goal;
 * both are reported through `onError`.
 */
export const createGoalController = (agent: Agent, options: GoalControllerOptions = {}): GoalController => {
  // Read once, from the checked copy: a getter cannot answer differently later.
  const checked = (parseGoalInput(controllerOptionsSchema, options, 'createGoalController()', 'options') ??
    {}) as GoalControllerOptions
  return new TrackedGoalController(agent, checked)
}

/** The shell around one agent's goal track: feeds it what happens, does the effects it asks for. */
class TrackedGoalController implements GoalController {
  readonly #agent: Agent
  readonly #extensions: AgentExtensions
  readonly #defaultMax: number | null
  readonly #continuation: (goal: GoalState, round: number) => string
  readonly #report: (error: GoalControllerError) => void
  readonly #view$ = new BehaviorSubject<GoalView>(NO_GOAL)
  #track = NEW_TRACK
  readonly view$: Observable<GoalView> = this.#view$.pipe(distinctUntilChanged())

  /** @param checked The options, already checked. */
  constructor(agent: Agent, checked: GoalControllerOptions) {
    this.#agent = agent
    this.#extensions = extensionsOf(agent)
    this.#defaultMax = checked.defaultMaxRounds === undefined ? 10 : checked.defaultMaxRounds
    this.#continuation = checked.continuation ?? defaultContinuation
    this.#report = checked.onError ?? reportGoalError
    this.#follow()
  }

  create(input: { objective: string; maxRounds?: number | null }): GoalState {
    const { objective, maxRounds } = parseGoalInput(createInputSchema, input, 'create()')
    const goal = newGoal(
      this.view(),
      ulid(),
      objective,
      maxRounds === undefined ? this.#defaultMax : maxRounds,
    )
    this.#feed({ type: 'arm' })
    this.#change(goal)
    this.#startIfIdle()
    return goal
  }

  edit(patch: { objective?: string; maxRounds?: number | null }, expectedRevision?: number): GoalState {
    const parsed = parseGoalInput(editInputSchema, patch, 'edit()', 'patch')
    return this.#change(editedGoal(this.view(), parsed, parseRevision(expectedRevision)))
  }

  pause(): GoalState {
    return this.#change(reviseGoal(currentGoal(this.view(), 'pause()', ['active']), { phase: 'paused' }))
  }

  resume(): GoalState {
    const goal = this.#change(
      reviseGoal(currentGoal(this.view(), 'resume()', ['paused', 'blocked']), { phase: 'active' }),
    )
    this.#feed({ type: 'arm' })
    this.#startIfIdle()
    return goal
  }

  complete(): GoalState {
    return this.#change(
      reviseGoal(currentGoal(this.view(), 'complete()', ['active', 'paused', 'blocked']), {
        phase: 'complete',
      }),
    )
  }

  block(reason: { code: string; message: string }): GoalState {
    const blocked = parseGoalInput(blockInputSchema, reason, 'block()', 'reason')
    return this.#change(
      reviseGoal(currentGoal(this.view(), 'block()', ['active', 'paused']), { phase: 'blocked', blocked }),
    )
  }

  clear(): void {
    const goal = currentGoal(this.view(), 'clear()', ['active', 'paused', 'blocked', 'complete'])
    this.#change({ goalId: goal.goalId, revision: goal.revision + 1, cleared: true })
  }

  view(): GoalView {
    return goalView(this.#track)
  }

  /** Subscribes to the transcript and the agent's events, and guards continuation prompts. */
  #follow(): void {
    this.#agent.transcript$.subscribe({
      next: (event) => this.#feed({ type: 'transcript', event }),
      error: (error: unknown) => this.#view$.error(error),
      complete: () => this.#view$.complete(),
    })
    this.#agent.events$.subscribe((event) => this.#onEvent(event))
    this.#extensions.addPromptSubmit(({ source }) => this.#admit(source))
  }

  #onEvent(event: AgentEvent): void {
    switch (event.type) {
      case 'agent/inbox/dequeue':
        return this.#feed({ type: 'left', ids: [event.message.id] })
      case 'agent/inbox/discard':
        return this.#feed({ type: 'left', ids: event.messages.map((m) => m.id) })
      case 'agent/status':
        // A human prompt that was blocked at admission ends with no turn and no settled event.
        if (event.status === 'idle' && this.#track.owed) this.#maybeContinue()
        return
      case 'agent/cancel-requested':
        return this.#feed({ type: 'disarm' })
      case 'agent/settled':
        if (event.reason.kind === 'completed' || this.#track.owed) this.#maybeContinue()
        return
    }
  }

  /** Lets a continuation prompt in only when it is the current round and no human prompt waits. */
  #admit(source: PromptSubmitArgs<Agent>['source']): PromptDecision | undefined {
    if (source.kind !== 'goal' || (source as GoalSource).round === 0) return undefined
    const standing = roundStanding(this.#track, source as GoalSource)
    if (standing === 'current' && !this.#humansWaiting()) return undefined
    if (standing !== 'dead') this.#feed({ type: 'owe' })
    return { kind: 'block', reason: 'goal continuation is stale or a human prompt waits' }
  }

  /** Feeds `event` to the track, then does what it asks for. */
  #feed(event: GoalTrackEvent): void {
    const step = nextGoalTrack(this.#track, event)
    this.#track = step.track
    for (const effect of step.effects) {
      if (effect.kind === 'publish') this.#view$.next(this.view())
      else if (effect.kind === 'report') this.#report(effect.error)
      else if (effect.kind === 'block') {
        const blocked = { code: 'round-cap-reached', message: `${effect.rounds} rounds run` }
        this.#change(reviseGoal(effect.goal, { phase: 'blocked', blocked }))
      } else this.#queueRound(effect.goal, effect.round)
    }
  }

  /** Injects `goal` as a round-0 message carrying the whole change (R32), and publishes it. */
  #change<T extends GoalChange>(goal: T): T {
    this.#feed({ type: 'stage', change: goal })
    try {
      const text = renderGoalChange(goal)
      const source = { kind: 'goal', goalId: goal.goalId, revision: goal.revision, round: 0, change: goal }
      this.#agent.inject({ content: [{ type: 'text', text }], source })
    } catch (error) {
      this.#feed({ type: 'unstage', change: goal })
      throw error
    }
    this.#view$.next(this.view())
    return goal
  }

  #queueRound(goal: GoalState, round: number): void {
    const source = { kind: 'goal', goalId: goal.goalId, revision: goal.revision, round }
    let id: AgentMessageId
    try {
      id = this.#agent.followup({
        content: [{ type: 'text', text: this.#continuation(goal, round) }],
        source,
      })
    } catch (error) {
      // The user's callback failed, in an agent subscriber: block (explicit in the transcript,
      // like the round cap) rather than throw there or leave an active goal that never runs.
      const blocked = { code: 'continuation-failed', message: describeThrown(error) }
      this.#change(reviseGoal(goal, { phase: 'blocked', blocked }))
      this.#report(new GoalContinuationError(round, error))
      return
    }
    this.#feed({ type: 'queued', id })
  }

  /** Queues the next continuation round, or blocks the goal at its cap (R32). */
  #maybeContinue(): void {
    if (mayContinue(this.#track)) this.#feed({ type: this.#humansWaiting() ? 'owe' : 'continue' })
  }

  #startIfIdle(): void {
    if (this.#agent.status === 'idle') this.#maybeContinue()
  }

  /** Waking human prompts only: a parked one never runs by itself, so it must not stall the goal. */
  #humansWaiting(): boolean {
    return this.#extensions.wakingHumanPrompts() > 0
  }
}
