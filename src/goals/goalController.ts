import type { Observable } from 'rxjs'
import type { GoalState, GoalView } from '../contracts/goals.js'
import type { GoalControllerError } from './reportGoalError.js'

/** `createGoalController`'s options, checked when it is created. */
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

/** A goal controller (R32), made by `createGoalController(agent, options)`. */
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

/** The text of continuation round `round` when the options give none. */
export const defaultContinuation = (goal: GoalState, round: number) =>
  `Continue working toward the goal (round ${round}${goal.maxRounds ? ` of ${goal.maxRounds}` : ''}): ` +
  goal.objective
