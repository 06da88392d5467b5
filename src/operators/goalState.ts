import { distinctUntilChanged, type OperatorFunction, scan, startWith } from 'rxjs'
import type { SessionEvent } from '../contracts/events.js'
import type { GoalView } from '../contracts/goals.js'
import { goalStep, NO_GOAL } from '../goals/foldGoal.js'

/**
 * The goal fold (R34) as an operator over `transcript$`: the current goal and rounds started,
 * emitted first for the empty transcript and then whenever they change.
 *
 * Like `scan(goalStep)`, but starts with "no goal" and skips events that change nothing.
 *
 * ```text
 * transcript$:  --c----t--r----c--|     c = round-0 goal change, r = continuation prompt,
 *                                      t = any other event
 * output:       n-C-------R----D--|     n = no goal, C/D = new goal states, R = rounds + 1
 * ```
 *
 * 1. An event that does not decode or fold (R33, R34) errors the output with `GoalEventError`.
 * 2. Completion passes through.
 *
 * @returns An operator from durable events to goal views.
 */
export const goalState = (): OperatorFunction<SessionEvent, GoalView> => (source) =>
  source.pipe(scan(goalStep, NO_GOAL), startWith(NO_GOAL), distinctUntilChanged())
