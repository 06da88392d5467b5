/** The durable event of a budget pause (R80), and the budget's shapes its live event shares. */
import * as z from 'zod/mini'
import { durable } from './durable.js'
import type { Defined } from './frozen.js'
import { amount, countFromZero, position } from './leaves.js'

/** Token usage counted against a budget: what the model reported, summed over the session. */
export const budgetUsage = z.strictObject({ totalTokens: amount, requests: amount })
export const budgetLimits = z.strictObject({
  maxTotalTokens: z.optional(amount),
  maxRequests: z.optional(amount),
})

/** A budget limit was passed and the turn paused at its step boundary (R80). */
export const budgetPauseShape = {
  turn: position,
  /** 0: the turn paused before its first request (R80). */
  step: countFromZero,
  usage: budgetUsage,
  limits: budgetLimits,
}

export const pauseEvents = [durable('budget/pause', budgetPauseShape)] as const

export type BudgetUsage = Defined<typeof budgetUsage>
export type BudgetLimits = Defined<typeof budgetLimits>
