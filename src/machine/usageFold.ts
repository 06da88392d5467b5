import type { BudgetUsage, DurableDraft, SessionUsage } from '../contracts/events.js'
import type { Usage } from '../contracts/messages.js'

/**
 * The session's usage (R73, R80) as one fold over its durable events: the reducer folds each event
 * it writes, and an agent that reopens a log folds the log, so `agent.usage` and the budget agree,
 * live and after a reopen, whatever the log holds.
 */

export const NO_USAGE: SessionUsage = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  requests: 0,
  estimatedRequests: 0,
})

/**
 * The usage an event records (R73): a request's message, the end of a step that wrote none (cut,
 * cancelled or failed), or a compaction whose summariser reported or estimated it (R74).
 */
export const usageOf = (event: DurableDraft): Usage | undefined =>
  event.type === 'assistant/message' || event.type === 'step/end' || event.type === 'compaction'
    ? event.data.usage
    : undefined

/**
 * One event into the total; the same object when the event records no request. Every step is
 * exactly one model request, so a `step/start` counts one, estimated until its reported usage
 * comes: a request whose usage was never written (a crash mid-step, a log from before usage was
 * recorded) stays counted, as estimated. A compaction with usage is one request of its own (the
 * summariser's, which has no step); one without usage made none of the model's.
 */
export const foldUsage = (total: SessionUsage, event: DurableDraft): SessionUsage => {
  if (event.type === 'step/start')
    return Object.freeze({
      ...total,
      requests: total.requests + 1,
      estimatedRequests: total.estimatedRequests + 1,
    })
  const usage = usageOf(event)
  if (usage === undefined) return total
  const ownRequest = event.type === 'compaction'
  const estimated = total.estimatedRequests + (ownRequest ? 1 : 0) - (usage.estimated ? 0 : 1)
  return Object.freeze({
    inputTokens: total.inputTokens + usage.inputTokens,
    outputTokens: total.outputTokens + usage.outputTokens,
    cachedInputTokens: total.cachedInputTokens + (usage.cachedInputTokens ?? 0),
    requests: total.requests + (ownRequest ? 1 : 0),
    estimatedRequests: Math.max(0, estimated),
  })
}

/** The usage of a whole log: what a reopened agent starts from. */
export const usageOfLog = (events: readonly DurableDraft[]): SessionUsage =>
  events.reduce(foldUsage, NO_USAGE)

/** What a budget counts (R80): every token of every request, reported or estimated, and the requests. */
export const budgetUsage = (usage: SessionUsage): BudgetUsage => ({
  totalTokens: usage.inputTokens + usage.outputTokens,
  requests: usage.requests,
})
