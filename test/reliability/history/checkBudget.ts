/**
 * Budgets after the run (R73, R80), for a schedule whose agent has one. The usage is folded here
 * from the contract, apart from the library's fold: a `step/start` is one request, a `compaction`
 * with usage one more; the tokens are those of every recorded usage (on `assistant/message`,
 * `step/end` and `compaction`), reported or estimated. With the limits in force at each event (the
 * agent's, then each accepted `raiseBudget()`):
 *
 * - no `step/start` comes once a limit is reached (usage at least the limit);
 * - a `budget/pause` and a `turn/end {budget}` come only with a limit reached, and the pause shows
 *   the usage and the limits in force;
 * - `agent.usage` is the fold of the whole log;
 * - reopened after any event of the log (`createAgent({history, budget})`), the agent shows the
 *   fold of that prefix as its usage; after a `budget/pause` it is paused, after a `turn/end` idle.
 */
import { isDeepStrictEqual } from 'node:util'
import type { BudgetLimits, SessionUsage } from '../../../src/contracts/events.js'
import { type Agent, createAgent, type SessionEvent } from '../../../src/index.js'
import { scriptedModel } from '../../../src/testing.js'
import type { Log } from '../log.js'
import type { BudgetPlan } from '../schedule.js'

/** The usage of `events`, as R73 states it. */
const referenceUsage = (events: readonly SessionEvent[]): SessionUsage => {
  let inputTokens = 0
  let outputTokens = 0
  let cachedInputTokens = 0
  let requests = 0
  let reported = 0
  for (const e of events) {
    if (e.type === 'step/start') requests++
    const usage =
      e.type === 'assistant/message' || e.type === 'step/end' || e.type === 'compaction'
        ? e.data.usage
        : undefined
    if (usage === undefined) continue
    if (e.type === 'compaction') requests++
    if (!usage.estimated) reported++
    inputTokens += usage.inputTokens
    outputTokens += usage.outputTokens
    cachedInputTokens += usage.cachedInputTokens ?? 0
  }
  return { inputTokens, outputTokens, cachedInputTokens, requests, estimatedRequests: requests - reported }
}

const reached = (usage: SessionUsage, limits: BudgetLimits): boolean =>
  (limits.maxRequests !== undefined && usage.requests >= limits.maxRequests) ||
  (limits.maxTotalTokens !== undefined && usage.inputTokens + usage.outputTokens >= limits.maxTotalTokens)

export const checkBudget = (log: Log, budget: BudgetPlan | null | undefined, agent: Agent): string[] => {
  if (!budget) return []
  const problems: string[] = []
  const events = log.durable
  const { onExceed, ...initial } = budget
  /** The limits in force when event `i` was written. */
  const limitsAt = (i: number): BudgetLimits => {
    let limits: BudgetLimits = initial
    for (const r of log.history.raises) if (r.durable <= i) limits = { ...limits, ...r.limits }
    return limits
  }
  let usage = referenceUsage([])
  events.forEach((e, i) => {
    const limits = limitsAt(i)
    const at = `seq ${e.seq} (${JSON.stringify(usage)}, limits ${JSON.stringify(limits)})`
    if (e.type === 'step/start' && reached(usage, limits))
      problems.push(`R80: step ${e.data.turn}.${e.data.step} started with the budget spent at ${at}`)
    if (e.type === 'budget/pause') {
      if (!reached(usage, limits)) problems.push(`R80: budget/pause with the budget not spent at ${at}`)
      const shown = { totalTokens: usage.inputTokens + usage.outputTokens, requests: usage.requests }
      if (!isDeepStrictEqual(e.data.usage, shown) || !isDeepStrictEqual(e.data.limits, limits))
        problems.push(`R80: budget/pause shows ${JSON.stringify(e.data)} at ${at}`)
    }
    if (e.type === 'turn/end' && e.data.reason.kind === 'budget' && !reached(usage, limits))
      problems.push(`R80: turn/end budget with the budget not spent at ${at}`)
    usage = referenceUsage(events.slice(0, i + 1))
  })
  if (!isDeepStrictEqual(agent.usage, usage))
    problems.push(`R73: agent.usage ${JSON.stringify(agent.usage)} is not the log's ${JSON.stringify(usage)}`)
  problems.push(...checkReopened(events, (n) => ({ ...limitsAt(n), onExceed })))
  return problems
}

/** R73, R80 after a reopen at each event of the log. */
const checkReopened = (events: readonly SessionEvent[], budgetAt: (n: number) => BudgetPlan): string[] => {
  const problems: string[] = []
  for (let n = 1; n <= events.length; n++) {
    const history = events.slice(0, n)
    const last = history[n - 1] as SessionEvent
    const reopened = createAgent({ model: scriptedModel([]), history, budget: budgetAt(n) })
    const expected = referenceUsage(history)
    if (!isDeepStrictEqual(reopened.usage, expected))
      problems.push(
        `R73/R80: reopened after seq ${last.seq}, usage is ${JSON.stringify(reopened.usage)}, not ${JSON.stringify(expected)}`,
      )
    const status = last.type === 'budget/pause' ? 'paused' : last.type === 'turn/end' ? 'idle' : undefined
    if (status !== undefined && reopened.status !== status)
      problems.push(`R65/R80: reopened after seq ${last.seq} (${last.type}), it is ${reopened.status}`)
  }
  return problems
}
