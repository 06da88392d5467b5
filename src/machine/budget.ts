import type { Turn } from './activity.js'
import { budgetSpent, overBudget } from './budgetCheck.js'
import type { InputOf } from './inputs.js'
import { pause, unpause } from './pause.js'
import { withTurn } from './records.js'
import type { Reduction } from './reduction.js'
import type { DeliveryState } from './state.js'
import { beginStep, stepTurn, type TurnBase } from './stepStart.js'
import { closeTurn } from './turnEnd.js'
import { budgetUsage } from './usageFold.js'

const MAX_STEPS = Object.freeze({ kind: 'max-steps' as const })
const BUDGET = Object.freeze({ kind: 'budget' as const })

/** The last request passed a budget whose `onExceed` is `'stop'`: the turn ends after this step. */
export const budgetStops = (s: DeliveryState): boolean => s.budget?.onExceed === 'stop' && overBudget(s)

/**
 * The turn goes on to `step` unless its `maxSteps` are taken (R81) or its budget is spent (R80):
 * then `'stop'` ends it here, before the request, and `'pause'` makes it wait at this boundary,
 * durably, until `raiseBudget()` or `cancel()`. A turn's first step comes here too, so a turn
 * admitted with the budget spent writes its `turn/start` and makes no request (its pause is at
 * step 0).
 */
export const continueTurn = (r: Reduction, turn: Turn, step: number): void => {
  if (turn.maxSteps !== undefined && step > turn.maxSteps) return closeTurn(r, turn, MAX_STEPS)
  const s = r.state
  if (!budgetSpent(s)) return beginStep(r, turn, step)
  if (s.budget?.onExceed === 'stop') return closeTurn(r, turn, BUDGET)
  r.setActivity(withTurn(turn, { phase: 'budget-paused' }))
  const limits = limitsOf(s)
  const data = { turn: turn.turn, step: turn.step, usage: budgetUsage(s.usage), limits }
  r.durable({ type: 'budget/pause', data })
  r.live({ type: 'agent/budget/exceeded', agentId: s.agentId, ...data })
  pause(r)
  r.effect({ kind: 'persist' })
}

/** A new turn's step 1 (R12, R24), unless its budget is spent before its first request (R80). */
export const firstStep = (r: Reduction, base: TurnBase): void => continueTurn(r, stepTurn(base, 0), 1)

const limitsOf = (s: DeliveryState) => {
  const b = s.budget
  const limits: { maxTotalTokens?: number; maxRequests?: number } = {}
  if (b?.maxTotalTokens !== undefined) limits.maxTotalTokens = b.maxTotalTokens
  if (b?.maxRequests !== undefined) limits.maxRequests = b.maxRequests
  return limits
}

/** `raiseBudget(limits)` (R80): the façade checked each limit against the usage. */
export const raiseBudget = (r: Reduction, { limits }: InputOf<'raise-budget'>): void => {
  const budget = r.state.budget
  if (budget === undefined || r.state.disposal !== 'none') return
  r.set({ budget: { ...budget, ...limits } })
  const a = r.state.activity
  if (a?.kind !== 'turn' || a.abort || a.phase !== 'budget-paused' || budgetSpent(r.state)) return
  unpause(r)
  beginStep(r, a, a.step + 1)
}
