import type { GoalChange } from '../contracts/goals.js'
import { isTombstone } from '../contracts/goals.js'

export const GOAL_STATE_OPEN = '<goal_state>'
export const GOAL_STATE_CLOSE = '</goal_state>'

/** The change with its keys in one fixed order, so the rendering is canonical. */
const canonical = (change: GoalChange): object => {
  if (isTombstone(change)) return { goalId: change.goalId, revision: change.revision, cleared: true }
  const { goalId, revision, objective, phase, maxRounds, blocked } = change
  return {
    goalId,
    revision,
    objective,
    phase,
    maxRounds,
    ...(blocked ? { blocked: { code: blocked.code, message: blocked.message } } : {}),
  }
}

/** The one text block a round-0 goal message carries (R32): `<goal_state>{…}</goal_state>`. */
export const renderGoalChange = (change: GoalChange): string =>
  `${GOAL_STATE_OPEN}${JSON.stringify(canonical(change))}${GOAL_STATE_CLOSE}`
