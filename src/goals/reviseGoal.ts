import type { GoalState, GoalView } from '../contracts/goals.js'
import { GoalRevisionConflict, GoalStateError } from './errors.js'

/**
 * What each call of a goal controller changes (R32), as pure functions of the goal it sees: the
 * new state, or a `GoalStateError` (`GoalRevisionConflict`) when the call is not allowed now.
 */

/** `goal` with `patch` applied at the next revision; a `blocked` reason only if `patch` has one. */
export const reviseGoal = (goal: GoalState, patch: Partial<GoalState>): GoalState => {
  const { blocked: _dropped, ...rest } = goal
  return { ...rest, ...patch, revision: goal.revision + 1 }
}

/** The goal `call` acts on, which must be in one of the phases `allowed`. */
export const currentGoal = (
  view: GoalView,
  call: string,
  allowed: readonly GoalState['phase'][],
): GoalState => {
  const { goal } = view
  if (!goal) throw new GoalStateError(`${call}: there is no goal; create() one first`)
  if (!allowed.includes(goal.phase))
    throw new GoalStateError(`${call}: not allowed while the goal is ${goal.phase}`)
  return goal
}

/** `create()`: a new active goal, unless one is there that is not complete. */
export const newGoal = (
  view: GoalView,
  goalId: string,
  objective: string,
  maxRounds: number | null,
): GoalState => {
  const existing = view.goal
  if (existing && existing.phase !== 'complete') {
    throw new GoalStateError(
      `create(): goal ${existing.goalId} is ${existing.phase}; complete() or clear() it first`,
    )
  }
  return { goalId, revision: 1, objective, phase: 'active', maxRounds }
}

/** `edit()`: the objective or the cap changed, at `expected` revision if given; a block stays. */
export const editedGoal = (
  view: GoalView,
  patch: { readonly objective?: string | undefined; readonly maxRounds?: number | null | undefined },
  expected: number | undefined,
): GoalState => {
  const goal = currentGoal(view, 'edit()', ['active', 'paused', 'blocked', 'complete'])
  if (expected !== undefined && expected !== goal.revision)
    throw new GoalRevisionConflict(expected, goal.revision)
  return reviseGoal(goal, {
    ...(patch.objective !== undefined ? { objective: patch.objective } : {}),
    ...(patch.maxRounds !== undefined ? { maxRounds: patch.maxRounds } : {}),
    ...(goal.blocked ? { blocked: goal.blocked } : {}),
  })
}
