/**
 * What a top-level call may change synchronously: a send never opens the window or changes the
 * status (the wake is deferred, R6), a cancel never moves the driver (R13b), and `retry()` while
 * idle opens its retry turn at once (R24). Calls during which a reentrant subscriber acted, and
 * calls while disposing, are not judged.
 */
import { type Agent, outstandingInbox } from '../../src/index.js'
import type { Log } from './log.js'
import type { Op } from './schedule.js'

export const judgeTopLevel = (
  log: Log,
  agent: Agent,
  op: Op,
  reactions: () => number,
  perform: () => void,
): void => {
  const status = agent.status
  const window = agent.acceptsNextStep
  const durable = log.durable.length
  const fired = reactions()
  const pending = () => [...(outstandingInbox(log.live).get(agent.id) ?? [])].join()
  const before = op.kind === 'cancel' ? pending() : ''
  const live = log.live.length
  const disposing = () => log.completed.events || log.promises.some((p) => p.what.startsWith('dispose'))
  const skip = disposing()
  perform()
  const requested = log.live.slice(live).find((e) => e.type === 'agent/cancel-requested')
  if (op.kind === 'cancel' && requested) log.topCancels.set(requested, op.keepInbox)
  if (skip || disposing() || reactions() !== fired || op.kind === 'dispose') return
  if (op.kind === 'retry') {
    const start = log.durable[durable]
    if (status === 'idle' && (start?.type !== 'turn/start' || start.data.trigger.kind !== 'retry'))
      log.problems.push('R24: retry() while idle did not open a retry turn at once')
    return
  }
  if (op.kind === 'cancel') {
    // R25/R26: without keepInbox everything pending is discarded at once; with it, nothing.
    const after = pending()
    if (!op.keepInbox && after !== '') log.problems.push(`R25: cancel() left ${after} pending`)
    if (op.keepInbox && after !== before) log.problems.push('R26: cancel(keepInbox) changed what is pending')
  }
  // R71: cancelling the last open call of a batch may end its step, and so its turn, at once.
  // R74: compact() while idle starts the compaction at once (`running`, the window open).
  // R80: raiseBudget() resumes a budget pause at once (`running`).
  if (op.kind === 'cancelCall' || op.kind === 'compact' || op.kind === 'raiseBudget') return
  // R68/R80: an interrupting steer ends the streaming step at once; with the budget spent, that
  // step boundary is where the turn pauses.
  if (log.durable.slice(durable).some((e) => e.type === 'budget/pause')) return
  if (agent.status !== status)
    log.problems.push(`R6/R13b: ${op.kind}() changed the status to ${agent.status}`)
  if (!window && agent.acceptsNextStep) log.problems.push(`R6: ${op.kind}() opened the window synchronously`)
}
