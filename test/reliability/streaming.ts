/**
 * What the run knows, from its logs alone, about the step a top-level call meets: whether its
 * model request streams (R68: an interrupting steer cuts it) and which of its calls may still be
 * cancelled (R71). A top-level call meets the agent at rest (nothing scheduled runs meanwhile),
 * so the logs and the agent's state agree.
 */
import type { AgentStatus } from '../../src/index.js'
import type { Log, StreamingStep } from './log.js'

/** The latest `step/start` on the timeline, its position, and its request number (1-based). */
const latestStep = (log: Log) => {
  let request = 0
  let at = -1
  log.timeline.forEach((x, i) => {
    if ('durable' in x && x.durable.type === 'step/start') {
      request++
      at = i
    }
  })
  const start = log.timeline[at]
  if (!start || !('durable' in start) || start.durable.type !== 'step/start') return undefined
  return { ...start.durable.data, at, request }
}

/** What came after the latest `step/start`: its end, its answer, a cancel of the turn. */
const since = (log: Log, at: number) => {
  const after = log.timeline.slice(at + 1)
  const durable = after.flatMap((x) => ('durable' in x ? [x.durable] : []))
  return {
    ended: durable.some((e) => e.type === 'step/end' || e.type === 'turn/end'),
    answer: durable.find((e) => e.type === 'assistant/message'),
    cancelled: after.some((x) => 'live' in x && x.live.type === 'agent/cancel-requested'),
    settledCalls: new Set(
      after.flatMap((x) => ('live' in x && x.live.type === 'agent/tool/end' ? [x.live.callId] : [])),
    ),
  }
}

/** The step whose model request streams now (after `step/start`, before its `finish`), if any. */
export const streamingStep = (log: Log, status: AgentStatus): StreamingStep | undefined => {
  const latest = latestStep(log)
  if (status !== 'running' || !latest) return undefined
  const { ended, answer, cancelled } = since(log, latest.at)
  if (ended || answer || cancelled || log.finishedReplies.has(latest.request)) return undefined
  return { turn: latest.turn, step: latest.step }
}

/**
 * Whether `cancelToolCall(callId)` must cancel now: the call is one of the open step's answer
 * (written, so its batch runs), the turn is not cancelled, and the call has no result yet.
 */
export const cancellable = (log: Log, status: AgentStatus, callId: string): boolean => {
  const latest = latestStep(log)
  if (status !== 'running' || !latest) return false
  const { ended, answer, cancelled, settledCalls } = since(log, latest.at)
  if (ended || cancelled || answer?.type !== 'assistant/message' || settledCalls.has(callId)) return false
  return answer.data.content.some((b) => b.type === 'tool-call' && b.id === callId)
}

/** The calls of the open step's answer that have no result yet (in the order the model asked). */
export const openCallIds = (log: Log): string[] => {
  const latest = latestStep(log)
  if (!latest) return []
  const { ended, answer, settledCalls } = since(log, latest.at)
  if (ended || answer?.type !== 'assistant/message') return []
  return answer.data.content.flatMap((b) => (b.type === 'tool-call' && !settledCalls.has(b.id) ? [b.id] : []))
}

/** The call ids of every reply requested so far, in request order (`c<request>.<call>`). */
export const knownCallIds = (log: Log, calls: (request: number) => number): string[] => {
  const requests = log.durable.filter((e) => e.type === 'step/start').length
  const ids: string[] = []
  for (let k = 1; k <= requests; k++) for (let j = 1; j <= calls(k); j++) ids.push(`c${k}.${j}`)
  return ids
}
