import type { Usage } from '../contracts/messages.js'
import type { Turn } from './activity.js'
import type { InputOf } from './inputs.js'
import { pause, unpause } from './pause.js'
import { withTurn } from './records.js'
import type { Reduction } from './reduction.js'
import type { DeliveryState } from './state.js'
import { beginStep } from './stepStart.js'
import { closeTurn } from './turnEnd.js'

const MAX_STEPS = Object.freeze({ kind: 'max-steps' as const })

/** R80: a limit is passed when the usage is strictly greater than it. */
export const overBudget = (s: DeliveryState): boolean => {
  const b = s.budget
  if (b === undefined) return false
  const { totalTokens, requests } = s.usage
  return (
    (b.maxTotalTokens !== undefined && totalTokens > b.maxTotalTokens) ||
    (b.maxRequests !== undefined && requests > b.maxRequests)
  )
}

/** One model request was made: its reported tokens (when any) and the request count (R80). */
export const countRequest = (r: Reduction, usage: Usage | undefined): void => {
  // Counted only against a budget: an agent without one writes nothing here.
  if (r.state.budget === undefined) return
  const { totalTokens, requests } = r.state.usage
  const tokens = usage ? usage.inputTokens + usage.outputTokens : 0
  r.set({ usage: { totalTokens: totalTokens + tokens, requests: requests + 1 } })
}

/** The last request passed a budget whose `onExceed` is `'stop'`: the turn ends after this step. */
export const budgetStops = (s: DeliveryState): boolean => s.budget?.onExceed === 'stop' && overBudget(s)

/**
 * The turn goes on to `step` unless its `maxSteps` are taken (R81) or a `'pause'` budget is passed
 * (R80): then the turn waits at this boundary, durably, until `raiseBudget()` or `cancel()`.
 */
export const continueTurn = (r: Reduction, turn: Turn, step: number): void => {
  if (turn.maxSteps !== undefined && step > turn.maxSteps) return closeTurn(r, turn, MAX_STEPS)
  const s = r.state
  if (s.budget?.onExceed !== 'pause' || !overBudget(s)) return beginStep(r, turn, step)
  r.setActivity(withTurn(turn, { phase: 'budget-paused' }))
  const limits = limitsOf(s)
  const data = { turn: turn.turn, step: turn.step, usage: s.usage, limits }
  r.durable({ type: 'budget/pause', data })
  r.live({ type: 'agent/budget/exceeded', agentId: s.agentId, ...data })
  pause(r)
  r.effect({ kind: 'persist' })
}

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
  if (a?.kind !== 'turn' || a.abort || a.phase !== 'budget-paused' || overBudget(r.state)) return
  unpause(r)
  beginStep(r, a, a.step + 1)
}
