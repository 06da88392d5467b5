import { BehaviorSubject, distinctUntilChanged } from 'rxjs'
import { ulid } from 'ulid'
import type { Agent } from '../contracts/agent.js'
import type { GoalChange, GoalState, GoalView } from '../contracts/goals.js'
import type { AgentMessageId, GoalSource } from '../contracts/messages.js'
import { renderGoalChange } from '../messages/goalRender.js'
import { extensionsOf } from '../runtime/extensions.js'
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
import { reportGoalError } from './reportGoalError.js'
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
  const defaultMax = checked.defaultMaxRounds === undefined ? 10 : checked.defaultMaxRounds
  const continuation = checked.continuation ?? defaultContinuation
  const report = checked.onError ?? reportGoalError
  const extensions = extensionsOf(agent)
  // Waking human prompts only: a parked one never runs by itself, so it must not stall the goal.
  const humansWaiting = () => extensions.wakingHumanPrompts() > 0
  const view$ = new BehaviorSubject<GoalView>(NO_GOAL)
  let track = NEW_TRACK
  const view = (): GoalView => goalView(track)

  /** Feeds `event` to the track, then does what it asks for. */
  const feed = (event: GoalTrackEvent): void => {
    const step = nextGoalTrack(track, event)
    track = step.track
    for (const effect of step.effects) {
      if (effect.kind === 'publish') view$.next(view())
      else if (effect.kind === 'report') report(effect.error)
      else if (effect.kind === 'block') {
        const blocked = { code: 'round-cap-reached', message: `${effect.rounds} rounds run` }
        change(reviseGoal(effect.goal, { phase: 'blocked', blocked }))
      } else queueRound(effect.goal, effect.round)
    }
  }

  /** Injects `goal` as a round-0 message carrying the whole change (R32), and publishes it. */
  const change = <T extends GoalChange>(goal: T): T => {
    feed({ type: 'stage', change: goal })
    try {
      const text = renderGoalChange(goal)
      const source = { kind: 'goal', goalId: goal.goalId, revision: goal.revision, round: 0, change: goal }
      agent.inject({ content: [{ type: 'text', text }], source })
    } catch (error) {
      feed({ type: 'unstage', change: goal })
      throw error
    }
    view$.next(view())
    return goal
  }

  const queueRound = (goal: GoalState, round: number): void => {
    const source = { kind: 'goal', goalId: goal.goalId, revision: goal.revision, round }
    let id: AgentMessageId
    try {
      id = agent.followup({ content: [{ type: 'text', text: continuation(goal, round) }], source })
    } catch (error) {
      // The user's callback failed, in an agent subscriber: block (explicit in the transcript,
      // like the round cap) rather than throw there or leave an active goal that never runs.
      const blocked = { code: 'continuation-failed', message: describeThrown(error) }
      change(reviseGoal(goal, { phase: 'blocked', blocked }))
      report(new GoalContinuationError(round, error))
      return
    }
    feed({ type: 'queued', id })
  }

  /** Queues the next continuation round, or blocks the goal at its cap (R32). */
  const maybeContinue = (): void => {
    if (mayContinue(track)) feed({ type: humansWaiting() ? 'owe' : 'continue' })
  }
  const startIfIdle = () => {
    if (agent.status === 'idle') maybeContinue()
  }

  agent.transcript$.subscribe({
    next: (event) => feed({ type: 'transcript', event }),
    error: (error: unknown) => view$.error(error),
    complete: () => view$.complete(),
  })

  agent.events$.subscribe((event) => {
    switch (event.type) {
      case 'agent/inbox/dequeue':
        return feed({ type: 'left', ids: [event.message.id] })
      case 'agent/inbox/discard':
        return feed({ type: 'left', ids: event.messages.map((m) => m.id) })
      case 'agent/status':
        // A human prompt that was blocked at admission ends with no turn and no settled event.
        if (event.status === 'idle' && track.owed) maybeContinue()
        return
      case 'agent/cancel-requested':
        return feed({ type: 'disarm' })
      case 'agent/settled':
        if (event.reason.kind === 'completed' || track.owed) maybeContinue()
        return
    }
  })

  extensions.addPromptSubmit(({ source }) => {
    if (source.kind !== 'goal' || (source as GoalSource).round === 0) return undefined
    const standing = roundStanding(track, source as GoalSource)
    if (standing === 'current' && !humansWaiting()) return undefined
    if (standing !== 'dead') feed({ type: 'owe' })
    return { kind: 'block', reason: 'goal continuation is stale or a human prompt waits' }
  })

  return {
    create: (input) => {
      const { objective, maxRounds } = parseGoalInput(createInputSchema, input, 'create()')
      const goal = newGoal(view(), ulid(), objective, maxRounds === undefined ? defaultMax : maxRounds)
      feed({ type: 'arm' })
      change(goal)
      startIfIdle()
      return goal
    },
    edit: (patch, expectedRevision) => {
      const parsed = parseGoalInput(editInputSchema, patch, 'edit()', 'patch')
      return change(editedGoal(view(), parsed, parseRevision(expectedRevision)))
    },
    pause: () => change(reviseGoal(currentGoal(view(), 'pause()', ['active']), { phase: 'paused' })),
    resume: () => {
      const goal = change(
        reviseGoal(currentGoal(view(), 'resume()', ['paused', 'blocked']), { phase: 'active' }),
      )
      feed({ type: 'arm' })
      startIfIdle()
      return goal
    },
    complete: () =>
      change(
        reviseGoal(currentGoal(view(), 'complete()', ['active', 'paused', 'blocked']), { phase: 'complete' }),
      ),
    block: (reason) => {
      const blocked = parseGoalInput(blockInputSchema, reason, 'block()', 'reason')
      return change(
        reviseGoal(currentGoal(view(), 'block()', ['active', 'paused']), { phase: 'blocked', blocked }),
      )
    },
    clear: () => {
      const goal = currentGoal(view(), 'clear()', ['active', 'paused', 'blocked', 'complete'])
      change({ goalId: goal.goalId, revision: goal.revision + 1, cleared: true })
    },
    view,
    view$: view$.pipe(distinctUntilChanged()),
  }
}
