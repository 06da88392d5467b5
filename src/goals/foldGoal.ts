import type { SessionEvent } from '../contracts/events.js'
import { type GoalView, isTombstone } from '../contracts/goals.js'
import { decodeGoalEvent } from './decodeGoalEvent.js'
import { GoalEventError } from './errors.js'

export const NO_GOAL: GoalView = Object.freeze({ goal: undefined, rounds: 0 })

/**
 * One step of the goal fold (R34), a pure reducer: reads only `user/message` events. A round-0
 * change sets (or clears) the goal; rounds restart for a new goal id. A positive round must be
 * the next round of the active goal at its revision, or it throws `GoalEventError`. Any other
 * event returns the same view object.
 */
export const goalStep = (view: GoalView, event: SessionEvent): GoalView => {
  if (event.type !== 'user/message' || event.data.source.kind !== 'goal') {
    if (event.type === 'user/message') decodeGoalEvent(event) // throws on mismatched attribution
    return view
  }
  const change = decodeGoalEvent(event)
  if (change) {
    if (isTombstone(change)) return NO_GOAL
    const rounds = view.goal?.goalId === change.goalId ? view.rounds : 0
    return Object.freeze({ goal: change, rounds })
  }
  const source = event.data.source as { goalId: string; revision: number; round: number }
  const { goal, rounds } = view
  const fail = (detail: string): never => {
    throw new GoalEventError(event.seq, `round ${source.round} ${detail}`)
  }
  if (!goal) return fail('of a goal that does not exist')
  if (goal.goalId !== source.goalId)
    fail(`belongs to goal ${source.goalId}, not the current goal ${goal.goalId}`)
  if (goal.phase !== 'active') fail(`started while the goal is ${goal.phase}`)
  if (goal.revision !== source.revision)
    fail(`is at revision ${source.revision}, the goal at ${goal.revision}`)
  if (source.round !== rounds + 1) fail(`is not the next round (expected ${rounds + 1})`)
  return Object.freeze({ goal, rounds: source.round })
}

/** The goal state of a transcript (R34): the current goal and the rounds it started. */
export const foldGoal = (events: readonly SessionEvent[]): GoalView => events.reduce(goalStep, NO_GOAL)
