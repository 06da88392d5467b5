import { BehaviorSubject, distinctUntilChanged, type Observable } from 'rxjs'
import { ulid } from 'ulid'
import type { Agent } from '../contracts/agent.js'
import { type GoalChange, type GoalState, type GoalView, isTombstone } from '../contracts/goals.js'
import type { AgentMessageId, GoalSource } from '../contracts/messages.js'
import { renderGoalChange } from '../messages/goalRender.js'
import { extensionsOf } from '../runtime/extensions.js'
import {
  describeThrown,
  GoalContinuationError,
  GoalEventError,
  GoalRevisionConflict,
  GoalStateError,
} from './errors.js'
import { goalStep, NO_GOAL } from './foldGoal.js'
import {
  blockInputSchema,
  controllerOptionsSchema,
  createInputSchema,
  editInputSchema,
  parseGoalInput,
  parseRevision,
} from './goalInputs.js'
import { type GoalControllerError, reportGoalError } from './reportGoalError.js'

export type GoalControllerOptions = {
  /** The round cap of a goal created without `maxRounds`; `null` for none. Default 10. */
  readonly defaultMaxRounds?: number | null
  /** The text of continuation round `round`. */
  readonly continuation?: (goal: GoalState, round: number) => string
  /**
   * Called with what the controller cannot apply, in transcript order: a `GoalEventError` for a
   * transcript event the fold refuses (R33, R34), which the controller skips, keeping its last
   * good state; a `GoalContinuationError` when `continuation` failed (the goal is then blocked
   * with code `continuation-failed`). Default: RxJS's `config.onUnhandledError` if set, else
   * `console.error`. One that throws is reported like a throwing subscriber.
   */
  readonly onError?: (error: GoalControllerError) => void
}

export type GoalController = {
  create(input: { objective: string; maxRounds?: number | null }): GoalState
  edit(patch: { objective?: string; maxRounds?: number | null }, expectedRevision?: number): GoalState
  pause(): GoalState
  resume(): GoalState
  complete(): GoalState
  block(reason: { code: string; message: string }): GoalState
  clear(): void
  /** The goal as the transcript folds it, plus this controller's changes still staged in a turn. */
  view(): GoalView
  readonly view$: Observable<GoalView>
}

const defaultContinuation = (goal: GoalState, round: number) =>
  `Continue working toward the goal (round ${round}${goal.maxRounds ? ` of ${goal.maxRounds}` : ''}): ` +
  goal.objective

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
  let durable: GoalView = NO_GOAL
  let pending: GoalChange[] = []
  let armed = true
  let owed = false
  let continuationId: AgentMessageId | undefined
  const extensions = extensionsOf(agent)
  // Waking human prompts only: a parked one never runs by itself, so it must not stall the goal.
  const humansWaiting = () => extensions.wakingHumanPrompts() > 0
  const view$ = new BehaviorSubject<GoalView>(NO_GOAL)

  const view = (): GoalView => {
    const last = pending[pending.length - 1]
    if (!last) return durable
    if (isTombstone(last)) return NO_GOAL
    return { goal: last, rounds: durable.goal?.goalId === last.goalId ? durable.rounds : 0 }
  }
  const publish = () => view$.next(view())

  agent.transcript$.subscribe({
    next: (event) => {
      let next: GoalView
      try {
        next = goalStep(durable, event)
      } catch (error) {
        // The transcript holds what the fold refuses (a history, a hook's rewrite, an injected
        // round out of turn): a throw here would kill the process, so skip it and say so.
        if (!(error instanceof GoalEventError)) throw error
        report(error)
        return
      }
      if (next === durable) return
      durable = next
      if (event.type === 'user/message' && event.data.source.kind === 'goal') {
        const source = event.data.source as GoalSource
        pending = pending.filter((c) => !(c.goalId === source.goalId && c.revision === source.revision))
      }
      publish()
    },
    error: (error: unknown) => view$.error(error),
    complete: () => view$.complete(),
  })

  const mutate = (change: GoalChange): void => {
    pending.push(change)
    try {
      const text = renderGoalChange(change)
      const source = { kind: 'goal', goalId: change.goalId, revision: change.revision, round: 0, change }
      agent.inject({ content: [{ type: 'text', text }], source })
    } catch (error) {
      pending = pending.filter((c) => c !== change)
      throw error
    }
    publish()
  }

  const current = (call: string, allowed: readonly GoalState['phase'][]): GoalState => {
    const goal = view().goal
    if (!goal) throw new GoalStateError(`${call}: there is no goal; create() one first`)
    if (!allowed.includes(goal.phase))
      throw new GoalStateError(`${call}: not allowed while the goal is ${goal.phase}`)
    return goal
  }
  const next = (goal: GoalState, patch: Partial<GoalState>): GoalState => {
    const { blocked: _dropped, ...rest } = goal
    const state: GoalState = { ...rest, ...patch, revision: goal.revision + 1 }
    mutate(state)
    return state
  }

  /** Queues the next continuation round, or blocks the goal at its cap (R32). */
  const maybeContinue = (): void => {
    const { goal, rounds } = view()
    if (goal?.phase !== 'active' || !armed || continuationId) return
    if (humansWaiting()) {
      owed = true
      return
    }
    owed = false
    if (goal.maxRounds !== null && rounds >= goal.maxRounds) {
      next(goal, {
        phase: 'blocked',
        blocked: { code: 'round-cap-reached', message: `${rounds} rounds run` },
      })
      return
    }
    const round = rounds + 1
    const source = { kind: 'goal', goalId: goal.goalId, revision: goal.revision, round }
    try {
      continuationId = agent.followup({
        content: [{ type: 'text', text: continuation(goal, round) }],
        source,
      })
    } catch (error) {
      // The user's callback failed, in an agent subscriber: block (explicit in the transcript,
      // like the round cap) rather than throw there or leave an active goal that never runs.
      const message = describeThrown(error)
      next(goal, { phase: 'blocked', blocked: { code: 'continuation-failed', message } })
      report(new GoalContinuationError(round, error))
    }
  }
  const startIfIdle = () => {
    if (agent.status === 'idle') maybeContinue()
  }

  agent.events$.subscribe((event) => {
    switch (event.type) {
      case 'agent/inbox/dequeue':
      case 'agent/inbox/discard':
        for (const message of event.type === 'agent/inbox/dequeue' ? [event.message] : event.messages) {
          if (message.id === continuationId) continuationId = undefined
        }
        return
      case 'agent/status':
        // A human prompt that was blocked at admission ends with no turn and no settled event.
        if (event.status === 'idle' && owed) maybeContinue()
        return
      case 'agent/cancel-requested':
        armed = false
        return
      case 'agent/settled':
        if (event.reason.kind === 'completed' || owed) maybeContinue()
        return
    }
  })

  extensions.addPromptSubmit(({ source }) => {
    if (source.kind !== 'goal' || (source as GoalSource).round === 0) return undefined
    const s = source as GoalSource
    const { goal, rounds } = view()
    const live = goal?.phase === 'active' && armed && goal.goalId === s.goalId
    if (live && goal.revision === s.revision && s.round === rounds + 1 && !humansWaiting()) return undefined
    if (live) owed = true
    return { kind: 'block', reason: 'goal continuation is stale or a human prompt waits' }
  })

  return {
    create: (input) => {
      const { objective, maxRounds } = parseGoalInput(createInputSchema, input, 'create()')
      const existing = view().goal
      if (existing && existing.phase !== 'complete') {
        throw new GoalStateError(
          `create(): goal ${existing.goalId} is ${existing.phase}; complete() or clear() it first`,
        )
      }
      const goal: GoalState = {
        goalId: ulid(),
        revision: 1,
        objective,
        phase: 'active',
        maxRounds: maxRounds === undefined ? defaultMax : maxRounds,
      }
      armed = true
      mutate(goal)
      startIfIdle()
      return goal
    },
    edit: (patch, expectedRevision) => {
      const parsed = parseGoalInput(editInputSchema, patch, 'edit()', 'patch')
      const expected = parseRevision(expectedRevision)
      const goal = current('edit()', ['active', 'paused', 'blocked', 'complete'])
      if (expected !== undefined && expected !== goal.revision)
        throw new GoalRevisionConflict(expected, goal.revision)
      const changes: Partial<GoalState> = {
        ...(parsed.objective !== undefined ? { objective: parsed.objective } : {}),
        ...(parsed.maxRounds !== undefined ? { maxRounds: parsed.maxRounds } : {}),
        ...(goal.blocked ? { blocked: goal.blocked } : {}),
      }
      return next(goal, changes)
    },
    pause: () => next(current('pause()', ['active']), { phase: 'paused' }),
    resume: () => {
      const state = next(current('resume()', ['paused', 'blocked']), { phase: 'active' })
      armed = true
      startIfIdle()
      return state
    },
    complete: () => next(current('complete()', ['active', 'paused', 'blocked']), { phase: 'complete' }),
    block: (reason) => {
      const blocked = parseGoalInput(blockInputSchema, reason, 'block()', 'reason')
      return next(current('block()', ['active', 'paused']), { phase: 'blocked', blocked })
    },
    clear: () => {
      const goal = current('clear()', ['active', 'paused', 'blocked', 'complete'])
      mutate({ goalId: goal.goalId, revision: goal.revision + 1, cleared: true })
    },
    view,
    view$: view$.pipe(distinctUntilChanged()),
  }
}
