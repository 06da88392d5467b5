import { z } from 'zod'
import type { DecisionOptions } from '../contracts/agent.js'
import { type InputIssue, InvalidInputError } from '../contracts/errors.js'
import type { BudgetLimits, BudgetUsage } from '../contracts/events.js'
import type { MessageSource } from '../contracts/messages.js'
import { guarded } from '../messages/guarded.js'
import { messageSourceSchema } from '../messages/schemas.js'
import { toInputIssues } from '../messages/toInputIssues.js'

/** The checks of `approve`, `deny`, `cancelToolCall`, `raiseBudget` and the `budget` option (R62, R71, R80). */

const USER: MessageSource = Object.freeze({ kind: 'user' })

const decisionOptionsSchema = z.strictObject({
  reason: z.string().optional(),
  source: messageSourceSchema.optional(),
})

/** `approve(callId, {reason?, source?})`: a non-empty id and known options, or it throws. */
export const parseDecision = (
  call: string,
  callId: unknown,
  options: unknown,
): { readonly callId: string; readonly reason: string | undefined; readonly source: MessageSource } => {
  const issues: InputIssue[] = []
  if (typeof callId !== 'string' || callId === '')
    issues.push({ path: ['callId'], message: 'expected the id of a pending tool call (see agent.approvals)' })
  let parsed: DecisionOptions = {}
  if (options !== undefined) {
    const result = guarded(call, ['options'], () => decisionOptionsSchema.safeParse(options))
    if (result.success) parsed = result.data as DecisionOptions
    // Naming the issues reads the caller's values again: a revoked Proxy throws there too.
    else issues.push(...guarded(call, ['options'], () => toInputIssues(result.error, ['options'], options)))
  }
  if (issues.length > 0) throw new InvalidInputError(call, issues)
  return { callId: callId as string, reason: parsed.reason, source: parsed.source ?? USER }
}

const cancelToolCallSchema = z.strictObject({ reason: z.string().optional() })

/** `cancelToolCall(callId, {reason?})` (R71): a non-empty id and known options, or it throws. */
export const parseCancelToolCall = (callId: unknown, options: unknown): { readonly reason?: string } => {
  const call = 'cancelToolCall()'
  const issues: InputIssue[] = []
  if (typeof callId !== 'string' || callId === '')
    issues.push({
      path: ['callId'],
      message: 'expected the id of a running tool call (agent/tool/start names it)',
    })
  let reason: string | undefined
  if (options !== undefined) {
    const result = guarded(call, ['options'], () => cancelToolCallSchema.safeParse(options))
    if (result.success) reason = result.data.reason
    else issues.push(...guarded(call, ['options'], () => toInputIssues(result.error, ['options'], options)))
  }
  if (issues.length > 0) throw new InvalidInputError(call, issues)
  return reason === undefined ? {} : { reason }
}

const limit = z.number().positive()
const limitsSchema = z.strictObject({
  maxTotalTokens: limit.optional(),
  maxRequests: z.int().positive().optional(),
})
// A limit is passed when the usage is strictly greater (R80): 0 allows none past the first request.
const budgetSchema = z
  .strictObject({
    maxTotalTokens: z.number().nonnegative().optional(),
    maxRequests: z.int().nonnegative().optional(),
    onExceed: z.enum(['pause', 'stop']),
  })
  .refine((b) => b.maxTotalTokens !== undefined || b.maxRequests !== undefined, {
    message: 'expected maxTotalTokens, maxRequests, or both',
  })

/** The `budget` option of `createAgent`. */
export const checkBudget = (budget: unknown): InputIssue[] => {
  if (budget === undefined) return []
  const result = budgetSchema.safeParse(budget)
  return result.success ? [] : toInputIssues(result.error, ['options', 'budget'], budget)
}

/** `raiseBudget(limits)`: at least one limit, each above what is already used (R80). */
export const parseRaise = (limits: unknown, usage: BudgetUsage, hasBudget: boolean): BudgetLimits => {
  const call = 'raiseBudget()'
  if (!hasBudget)
    throw new InvalidInputError(call, [
      { path: ['limits'], message: 'this agent has no budget; give createAgent({budget}) one first' },
    ])
  const result = guarded(call, ['limits'], () => limitsSchema.safeParse(limits))
  if (!result.success)
    throw new InvalidInputError(
      call,
      guarded(call, ['limits'], () => toInputIssues(result.error, ['limits'], limits)),
    )
  const { maxTotalTokens, maxRequests } = result.data
  const issues: InputIssue[] = []
  if (maxTotalTokens === undefined && maxRequests === undefined)
    issues.push({ path: ['limits'], message: 'expected maxTotalTokens, maxRequests, or both' })
  if (maxTotalTokens !== undefined && !(maxTotalTokens > usage.totalTokens))
    issues.push({
      path: ['limits', 'maxTotalTokens'],
      message: `expected more than the ${usage.totalTokens} tokens already used`,
    })
  if (maxRequests !== undefined && !(maxRequests > usage.requests))
    issues.push({
      path: ['limits', 'maxRequests'],
      message: `expected more than the ${usage.requests} requests already made`,
    })
  if (issues.length > 0) throw new InvalidInputError(call, issues)
  return Object.freeze({
    ...(maxTotalTokens === undefined ? {} : { maxTotalTokens }),
    ...(maxRequests === undefined ? {} : { maxRequests }),
  })
}
