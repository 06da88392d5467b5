import { EMPTY_DRAFT, type Turn } from './activity.js'
import { withTurn } from './records.js'
import type { Reduction } from './reduction.js'

/** The current turn, if `activity` names it, no cancel hit it, and it is in `phase`. */
export const liveTurn = (
  r: Reduction,
  activity: number,
  phase?: Turn['phase'],
  step?: number,
): Turn | undefined => {
  const a = r.state.activity
  if (a?.kind !== 'turn' || a.id !== activity || a.abort) return undefined
  if (phase !== undefined && a.phase !== phase) return undefined
  return step === undefined || a.step === step ? a : undefined
}

/** What a turn's first step is made from: the turn's numbers, and its `maxSteps` when it has some. */
export type TurnBase = Pick<Turn, 'id' | 'turn'> & Partial<Turn>

/** The turn as `step` begins, in its `step` hook (R15). */
export const stepTurn = (base: TurnBase, step: number): Turn =>
  // Listed, not spread (see copy.ts): a new step keeps the turn's maxTokens, requestError, abort.
  withTurn(base as Turn, {
    kind: 'turn',
    step,
    phase: 'step-hook',
    stepOpen: false,
    draft: EMPTY_DRAFT,
    toolResults: 0,
    concluded: false,
    started: [],
    outcomes: [],
    maxTokens: base.maxTokens ?? false,
    approvals: undefined,
    retries: undefined,
  })

/** R15: every step starts with the `step` hook. */
export const beginStep = (r: Reduction, base: TurnBase, step: number): void => {
  const turn = stepTurn(base, step)
  r.setActivity(turn)
  r.effect({ kind: 'step-hook', activity: turn.id, turn: turn.turn, step })
}
