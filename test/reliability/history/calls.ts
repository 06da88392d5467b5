/**
 * `compact()` and `rollback()` calls of a history run (R74, R77): each records what the agent
 * showed at the call and what came of it, for checkCompactions.ts and checkRollbacks.ts.
 */
import type { Summarizer } from '../../../src/contracts/compaction.js'
import type { Agent } from '../../../src/index.js'
import { type Log, type Origin, watch } from '../log.js'
import type { CompactOp, RollbackOp } from '../schedule.js'
import type { CompactCall, HistoryView } from './log.js'

const viewOf = (a: Agent): HistoryView => ({
  events: a.session.events.length,
  messages: a.session.messages(),
  inbox: a.inbox,
})

export const makeHistoryCalls = (log: Log, agent: () => Agent, summarize: Summarizer) => {
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

  return { compact, rollback }
}
