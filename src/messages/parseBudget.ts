/** The checks of the `budget` option and of `raiseBudget` (R80). */
import * as z from 'zod/mini'
import type { BudgetLimits, BudgetUsage } from '../contracts/events.js'
import { checkInput, type FieldRule } from './checkInput.js'

const limitsSchema = z.strictObject({
  maxTotalTokens: z.optional(z.number().check(z.positive())),
  maxRequests: z.optional(z.int().check(z.positive())),
})
// A limit is passed when the usage is strictly greater (R80): 0 allows none past the first request.
const budgetSchema = z
  .strictObject({
    maxTotalTokens: z.optional(z.number().check(z.nonnegative())),
    maxRequests: z.optional(z.int().check(z.nonnegative())),
    onExceed: z.enum(['pause', 'stop']),
  })
  .check(
    z.refine((b) => b.maxTotalTokens !== undefined || b.maxRequests !== undefined, {
      error: 'expected maxTotalTokens, maxRequests, or both',
    }),
  )

/** The `budget` option of `createAgent`. */
export const budgetRule: FieldRule = (budget, path, check) => {
  if (budget !== undefined) check.parse(budgetSchema, budget, path)
  return undefined
}

/** `raiseBudget(limits)`: at least one limit, each above what is already used (R80). */
export const parseRaise = (limits: unknown, usage: BudgetUsage, hasBudget: boolean): BudgetLimits =>
  checkInput('raiseBudget()', (check) => {
    if (!hasBudget) {
      check.add(['limits'], 'this agent has no budget; give createAgent({budget}) one first')
      return {}
    }
    const parsed = check.parse(limitsSchema, limits, ['limits'])
    if (parsed === undefined) return {}
    const { maxTotalTokens, maxRequests } = parsed
    if (maxTotalTokens === undefined && maxRequests === undefined)
      check.add(['limits'], 'expected maxTotalTokens, maxRequests, or both')
    if (maxTotalTokens !== undefined && !(maxTotalTokens > usage.totalTokens))
      check.add(
        ['limits', 'maxTotalTokens'],
        `expected more than the ${usage.totalTokens} tokens already used`,
      )
    if (maxRequests !== undefined && !(maxRequests > usage.requests))
      check.add(['limits', 'maxRequests'], `expected more than the ${usage.requests} requests already made`)
    return Object.freeze({
      ...(maxTotalTokens === undefined ? {} : { maxTotalTokens }),
      ...(maxRequests === undefined ? {} : { maxRequests }),
    })
  })
