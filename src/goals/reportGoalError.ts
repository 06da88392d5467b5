import { config } from 'rxjs'
import type { GoalContinuationError, GoalEventError } from './errors.js'

/** What a goal controller reports (its `onError` option): it never throws them at anyone. */
export type GoalControllerError = GoalEventError | GoalContinuationError

/**
 * Where a controller created without `onError` reports: RxJS's `config.onUnhandledError` when
 * the app set one (where it already sends errors nobody handled), else `console.error`. Never a
 * throw: the controller runs inside the agent's subscribers, and a throw there would reach RxJS's
 * unhandled-error path, which by default kills the process.
 */
export const reportGoalError = (error: GoalControllerError): void => {
  const handler = config.onUnhandledError
  if (handler) handler(error)
  else console.error(error)
}
