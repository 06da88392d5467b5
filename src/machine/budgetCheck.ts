import type { DeliveryState } from './state.js'
import { budgetUsage } from './usageFold.js'

/** Whether `used` passes a limit (`strictly`: greater than it) or has reached one (R80). */
const beyond = (s: DeliveryState, strictly: boolean): boolean => {
  const b = s.budget
  if (b === undefined) return false
  const { totalTokens, requests } = budgetUsage(s.usage)
  const past = (used: number, limit: number | undefined) =>
    limit !== undefined && (strictly ? used > limit : used >= limit)
  return past(totalTokens, b.maxTotalTokens) || past(requests, b.maxRequests)
}

/** R80, after a request: a limit is passed when the usage is strictly greater than it. */
export const overBudget = (s: DeliveryState): boolean => beyond(s, true)

/**
 * R80, before a request: none starts once a limit is reached (so `maxRequests: n` allows exactly
 * n), and each counts what `agent.usage` counts: reported and estimated tokens alike.
 */
export const budgetSpent = (s: DeliveryState): boolean => beyond(s, false)
