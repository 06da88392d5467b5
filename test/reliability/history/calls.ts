/**
 * `compact()` and `rollback()` calls of a history run (R74, R77): each records what the agent
 * showed at the call and what came of it, for checkCompactions.ts and checkRollbacks.ts.
 */
import type { Summarizer } from '../../../src/contracts/compaction.js'
import { type Agent, AgentDisposedError, InvalidInputError } from '../../../src/index.js'
import { describeError, type Log, type Origin, watch } from '../log.js'
import type { BudgetPlan, CompactOp, RaiseBudgetOp, RollbackOp } from '../schedule.js'
import type { CompactCall, HistoryView } from './log.js'

const viewOf = (a: Agent): HistoryView => ({
  events: a.session.events.length,
  messages: a.session.messages(),
  inbox: a.inbox,
})

export const makeHistoryCalls = (
  log: Log,
  agent: () => Agent,
  summarize: Summarizer,
  budget: BudgetPlan | undefined,
) => {
  const disposeCalled = () => log.disposeCalls.length > 0

  const compact = (op: CompactOp, origin: Origin): void => {
    const a = agent()
    const call: CompactCall = {
      origin,
      position: log.timeline.length,
      end: -1,
      status: a.status,
      ...(op.keepLastTurns === undefined ? {} : { keepLastTurns: op.keepLastTurns }),
      disposeCalled: disposeCalled(),
      finished: log.completed.events,
    }
    log.history.compacts.push(call)
    const options = {
      ...(op.keepLastTurns === undefined ? {} : { keepLastTurns: op.keepLastTurns }),
      ...(op.own ? { summarize } : {}),
    }
    try {
      const promise = Object.keys(options).length === 0 ? a.compact() : a.compact(options)
      watch(log, `compact() from ${origin}`, promise)
      promise.then(
        (result) => {
          call.result = result
        },
        (error: unknown) => {
          call.rejected = error
        },
      )
    } catch (error) {
      call.thrown = error
    }
    call.end = log.timeline.length
  }

  /** Top level only: whether a refused call changed nothing is judged right around it. */
  const rollback = (op: RollbackOp): void => {
    const a = agent()
    const status = a.status
    const position = log.timeline.length
    const facts = { disposeCalled: disposeCalled(), finished: log.completed.events }
    const before = viewOf(a)
    let error: unknown
    try {
      a.rollback(op.turns)
    } catch (e) {
      error = e
    }
    log.history.rollbacks.push({
      turns: op.turns,
      position,
      end: log.timeline.length,
      status,
      ...facts,
      before,
      after: viewOf(a),
      ...(error === undefined ? {} : { error }),
    })
  }

  /**
   * R80: new limits `by` above the usage, for the limits the budget has; refused (InvalidInputError)
   * when not above it. What was accepted is kept with the log's length, for checkBudget.ts.
   */
  const raiseBudget = (op: RaiseBudgetOp, origin: Origin): void => {
    const a = agent()
    const { inputTokens, outputTokens, requests } = a.usage
    const limits = {
      ...(budget?.maxRequests === undefined ? {} : { maxRequests: requests + op.by }),
      ...(budget?.maxTotalTokens === undefined
        ? {}
        : { maxTotalTokens: inputTokens + outputTokens + 10 * op.by }),
    }
    const durable = log.durable.length
    try {
      a.raiseBudget(limits)
      log.history.raises.push({ durable, limits })
    } catch (error) {
      const refused = error instanceof InvalidInputError && (budget === undefined || op.by === 0)
      const disposed = error instanceof AgentDisposedError && disposeCalled()
      if (!refused && !disposed)
        log.problems.push(`R80: raiseBudget(+${op.by}) from ${origin} threw ${describeError(error)}`)
    }
  }

  return { compact, rollback, raiseBudget }
}
