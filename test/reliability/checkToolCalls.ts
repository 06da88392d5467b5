/**
 * Tool calls after the run (R15, R71, R72):
 *
 * - every `tool/call` has exactly one `tool/result` after it, and every result one call: a cut
 *   (R68), a cancel (R71) or an abort never leaves a call open or answers it twice;
 * - each result's `agent/tool/end` comes once, before it, with the same `isError` and code, and a
 *   call's `agent/tool/start`, if any, once before its end;
 * - `cancelToolCall(id)`: `false` for an unknown id and for a call whose end was published before
 *   the call; at top level exactly what the logs predict (streaming.ts), a `true` publishing the
 *   call's `CANCELLED` end at once and a `false` publishing nothing and leaving `agent.inbox` the
 *   same object; every `CANCELLED` result answers one earlier `true` for its id, with its reason.
 *   It throws only `AgentDisposedError`, once `dispose()` resolved.
 */
import { AgentDisposedError, type SessionEvent, type ToolResultBlock } from '../../src/index.js'
import { type CancelCall, describeError, type Log } from './log.js'

type Result = { readonly result: ToolResultBlock; readonly at: number }

/** The durable tool events by call id, with their timeline positions. */
const toolEvents = (log: Log) => {
  const calls = new Map<string, number[]>()
  const results = new Map<string, Result[]>()
  log.timeline.forEach((x, at) => {
    if (!('durable' in x)) return
    const e: SessionEvent = x.durable
    if (e.type === 'tool/call') calls.set(e.data.call.id, [...(calls.get(e.data.call.id) ?? []), at])
    if (e.type === 'tool/result') {
      const id = e.data.result.toolCallId
      results.set(id, [...(results.get(id) ?? []), { result: e.data.result, at }])
    }
  })
  return { calls, results }
}

const livePositions = (log: Log, type: 'agent/tool/start' | 'agent/tool/end', callId: string): number[] =>
  log.timeline.flatMap((x, at) =>
    'live' in x && x.live.type === type && x.live.callId === callId ? [at] : [],
  )

export const checkToolCalls = (log: Log): string[] => {
  const problems: string[] = []
  const { calls, results } = toolEvents(log)
  for (const [id, at] of calls) {
    const answers = results.get(id) ?? []
    if (at.length !== 1 || answers.length !== 1)
      problems.push(`R15: call ${id} has ${at.length} tool/call(s) and ${answers.length} tool/result(s)`)
    else if ((answers[0] as Result).at < (at[0] as number))
      problems.push(`R15: ${id}'s tool/result precedes its call`)
  }
  for (const [id, answers] of results) {
    if (!calls.has(id)) problems.push(`R15: tool/result for ${id} without a tool/call`)
    const ends = livePositions(log, 'agent/tool/end', id)
    const starts = livePositions(log, 'agent/tool/start', id)
    const first = answers[0] as Result
    if (ends.length !== 1 || (ends[0] as number) > first.at)
      problems.push(`R72: ${id} has ${ends.length} agent/tool/end(s), expected one before its tool/result`)
    if (starts.length > 1 || (starts[0] !== undefined && starts[0] > (ends[0] ?? -1)))
      problems.push(
        `R72: ${id} has ${starts.length} agent/tool/start(s), expected at most one before its end`,
      )
    const end = log.timeline[ends[0] ?? -1]
    if (end && 'live' in end && end.live.type === 'agent/tool/end') {
      const { isError, code } = end.live
      if (isError !== (first.result.isError ?? false) || code !== first.result.code)
        problems.push(
          `R72: ${id}'s end says ${isError}/${code}, its result ${first.result.isError}/${first.result.code}`,
        )
    }
  }
  problems.push(...checkCancelCalls(log, results))
  return problems
}

const checkCancelCalls = (log: Log, results: ReadonlyMap<string, readonly Result[]>): string[] => {
  const problems: string[] = []
  const answered = new Set<CancelCall>()
  for (const c of log.cancelCalls) {
    const p = (s: string) => problems.push(`R71: cancelToolCall(${c.callId}) from ${c.origin}: ${s}`)
    if ('error' in c.result) {
      if (!(c.result.error instanceof AgentDisposedError && c.finished))
        p(`threw ${describeError(c.result.error)}`)
      if (c.end !== c.position || !c.sameInbox) p('threw and still changed something')
      continue
    }
    if (c.finished) p('accepted after dispose() resolved (V2)')
    const { cancelled } = c.result
    const settledBefore = livePositions(log, 'agent/tool/end', c.callId).some((at) => at < c.position)
    if (cancelled && (settledBefore || !results.has(c.callId)))
      p(settledBefore ? 'returned true for a settled call' : 'returned true, yet the call has no tool/result')
    if (c.origin !== 'step' || c.disposeCalled) continue
    if (cancelled !== c.expected) p(`returned ${cancelled}, expected ${c.expected}`)
    const slice = log.timeline.slice(c.position, c.end)
    if (!cancelled && (slice.length > 0 || !c.sameInbox)) p('returned false and still changed something')
    const ended = slice.some(
      (x) =>
        'live' in x &&
        x.live.type === 'agent/tool/end' &&
        x.live.callId === c.callId &&
        x.live.code === 'CANCELLED',
    )
    if (cancelled && !ended) p('returned true, yet the call did not end CANCELLED at once')
  }
  // Every CANCELLED result answers one earlier `true` for its id (one from the top level, if any).
  for (const [id, answers] of results) {
    const result = (answers[0] as Result).result
    if (result.code !== 'CANCELLED') {
      const top = log.cancelCalls.find(
        (c) =>
          c.callId === id &&
          c.origin === 'step' &&
          !c.disposeCalled &&
          'cancelled' in c.result &&
          c.result.cancelled,
      )
      if (top)
        problems.push(`R71: ${id} was cancelled at top level, yet its result is ${result.code ?? 'a value'}`)
      continue
    }
    const call = log.cancelCalls.find(
      (c) =>
        c.callId === id &&
        c.position <= (answers[0] as Result).at &&
        !answered.has(c) &&
        'cancelled' in c.result &&
        c.result.cancelled,
    )
    if (!call) {
      problems.push(`R71: ${id}'s CANCELLED result answers no cancelToolCall that returned true`)
      continue
    }
    answered.add(call)
    const text = result.content[0]?.type === 'text' ? result.content[0].text : ''
    if (call.reason !== undefined && !text.includes(call.reason))
      problems.push(`R71: ${id}'s CANCELLED result does not carry the reason "${call.reason}"`)
  }
  return problems
}
