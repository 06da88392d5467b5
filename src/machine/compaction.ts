import type { CompactionResult } from '../contracts/events.js'
import type { Usage } from '../contracts/messages.js'
import type { AbortCause, Compacting, CompactionOrder } from './activity.js'
import { budgetSpent } from './budgetCheck.js'
import type { InputOf } from './inputs.js'
import type { Reduction } from './reduction.js'

const SKIPPED: CompactionResult = Object.freeze({ kind: 'skipped' })
const ABORTED: CompactionResult = Object.freeze({ kind: 'aborted' })
const OVER_BUDGET: CompactionResult = Object.freeze({ kind: 'skipped', reason: 'budget' })

/**
 * `compact()` (R74): at once while nothing runs; otherwise it is due before the next admission.
 * A call made while one is due or running joins it (the façade resolves every caller with the
 * next `compaction/end`), so two calls never summarise twice in a row.
 */
export const compact = (r: Reduction, { type: _, ...order }: InputOf<'compact'>): void => {
  const s = r.state
  // Asked while dispose() unwinds: it never runs, and its caller hears so.
  if (s.disposal !== 'none') return endWithout(r, ABORTED)
  if (s.activity?.kind === 'compaction' || s.compactionDue) return
  if (s.activity === null) return beginCompaction(r, order)
  r.set({ compactionDue: order })
}

/**
 * A compaction phase between turns (R74, R75): the window opens, so what is sent meanwhile waits
 * as it does while a prompt is being admitted, and nothing new reaches the log before the summary.
 */
export const beginCompaction = (r: Reduction, order: CompactionOrder): void => {
  const s = r.state
  const id = s.nextActivity
  const activity: Compacting = { kind: 'compaction', id, order }
  r.set({ activity, nextActivity: id + 1, window: true, compactionDue: undefined })
  if (s.status === 'idle') {
    r.set({ status: 'running' })
    r.live({ type: 'agent/status', agentId: s.agentId, status: 'running' })
  }
  r.live({ type: 'agent/compaction/start', agentId: s.agentId, turn: s.lastTurn })
  // R80: the agent's own model makes no request once the budget is spent.
  if (order.byModel && budgetSpent(s)) return endCompaction(r, activity, OVER_BUDGET)
  const { ref, keepLastTurns } = order
  r.effect({ kind: 'summarize', activity: id, ref, keepLastTurns, turn: s.lastTurn })
}

/** R74: the summary is one durable event, flushed before the driver moves on. */
export const compactionDone = (r: Reduction, { activity, compaction }: InputOf<'compaction/done'>): void => {
  const a = runningCompaction(r, activity)
  if (!a) return
  if (compaction === undefined) return endCompaction(r, a, SKIPPED)
  r.durable({ type: 'compaction', data: compaction })
  endCompaction(r, a, { kind: 'compacted', ...compaction })
}

/** R75: a failed summariser appends nothing; the error is published and the queue goes on. */
export const compactionFailed = (r: Reduction, { activity, error }: InputOf<'compaction/failed'>): void => {
  const a = runningCompaction(r, activity)
  if (!a) return
  r.live({ type: 'agent/error', agentId: r.state.agentId, turn: r.state.lastTurn, step: 0, error })
  endCompaction(r, a, { kind: 'error', error })
}

/**
 * R75: `cancel()` or `dispose()` stops a running compaction: its summariser's signal aborts and
 * its answer is dropped, so nothing is appended. False when no compaction runs.
 */
export const abortCompaction = (r: Reduction, cause: AbortCause): boolean => {
  const a = r.state.activity
  if (a?.kind !== 'compaction') return false
  r.effect({ kind: 'abort', activity: a.id, cause })
  r.effect({ kind: 'stop', activity: a.id })
  endCompaction(r, a, ABORTED)
  return true
}

/** A compaction that is due never runs once `dispose()` began: its caller hears it was aborted. */
export const dropDueCompaction = (r: Reduction): void => {
  if (!r.state.compactionDue) return
  r.set({ compactionDue: undefined })
  endWithout(r, ABORTED)
}

/**
 * R76: the last request of a turn that just ended measured its prompt; past the threshold, a
 * compaction is due before the next admission.
 */
export const dueAfterTurn = (r: Reduction): void => {
  const { autoCompaction: auto, requestInput } = r.state
  if (requestInput === undefined) return
  r.set({ requestInput: undefined })
  if (!auto || requestInput <= auto.threshold || r.state.compactionDue || r.state.disposal !== 'none') return
  const { threshold: _, ...order } = auto
  r.set({ compactionDue: order })
}

/** Notes a request's prompt size for R76, only when the agent compacts by itself. */
export const noteRequest = (r: Reduction, usage: Usage): void => {
  if (r.state.autoCompaction) r.set({ requestInput: usage.inputTokens })
}

/**
 * The phase ends as a turn does: the window closes, and the checkpoint makes what was appended
 * durable before the next move (claim the next prompt, or go idle and settle staged context).
 */
const endCompaction = (r: Reduction, a: Compacting, result: CompactionResult): void => {
  r.set({ window: false, activity: { kind: 'between', id: a.id, checkpointed: false } })
  r.live({ type: 'agent/compaction/end', agentId: r.state.agentId, turn: r.state.lastTurn, result })
  r.effect({ kind: 'checkpoint', activity: a.id })
}

const endWithout = (r: Reduction, result: CompactionResult): void =>
  r.live({ type: 'agent/compaction/end', agentId: r.state.agentId, turn: r.state.lastTurn, result })

const runningCompaction = (r: Reduction, activity: number): Compacting | undefined => {
  const a = r.state.activity
  return a?.kind === 'compaction' && a.id === activity ? a : undefined
}
