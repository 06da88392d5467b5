/**
 * What every approvals run must keep, read from the disk's final transcript and from what each
 * process was seen doing (the tools check consent as they run, process.ts):
 *
 * - V9: a call that needs approval runs at most once per process; a call whose durable fate is a
 *   denial or no decision never ran in a process that lived to flush it;
 * - V9, R21: every call has exactly one `tool/call`, right before exactly one `tool/result`;
 * - R62: a decision `approve()` or `deny()` accepted is written, or overtaken by one applied first;
 * - R61–R66: at most one request and one decision per call, the decision after its request; a
 *   denial's result is DENIED with its reason, an undecided request's result ABORTED (R64); only a
 *   timeout decides as the system, and it denies;
 * - R42, V9: every id settles in the last process (unless a crash lost every trace of it), as its
 *   own process said if that one did not crash; no id enters the transcript twice (R51);
 * - R30: after its `dispose()`, a process that did not crash has nothing outstanding.
 */
import type { SessionEvent } from '../../../src/index.js'
import { createConservationTracker } from '../../../src/operators/conservationStep.js'
import type { RunResult } from './run.js'

const textOf = (e: Extract<SessionEvent, { type: 'tool/result' }>) =>
  e.data.result.content.map((b) => (b.type === 'text' ? b.text : '')).join('')

const checkResults = (events: readonly SessionEvent[]): string[] => {
  const problems: string[] = []
  const asked = events.flatMap((e) =>
    e.type === 'assistant/message'
      ? e.data.content.flatMap((b) => (b.type === 'tool-call' ? [b.id] : []))
      : [],
  )
  const calls = new Map<string, number>()
  const results = new Map<string, number>()
  events.forEach((e, i) => {
    if (e.type === 'tool/call') {
      calls.set(e.data.call.id, (calls.get(e.data.call.id) ?? 0) + 1)
      const next = events[i + 1]
      if (next?.type !== 'tool/result' || next.data.result.toolCallId !== e.data.call.id)
        problems.push(`R21: tool/call ${e.data.call.id} (seq ${e.seq}) is not followed by its result`)
    } else if (e.type === 'tool/result') {
      const id = e.data.result.toolCallId
      results.set(id, (results.get(id) ?? 0) + 1)
    }
  })
  for (const id of asked)
    if (calls.get(id) !== 1 || results.get(id) !== 1)
      problems.push(`V9: ${id} has ${calls.get(id) ?? 0} tool/call and ${results.get(id) ?? 0} tool/result`)
  return problems
}

const checkDecisions = (events: readonly SessionEvent[]): string[] => {
  const problems: string[] = []
  const requested = new Map<string, number>()
  const decided = new Map<string, Extract<SessionEvent, { type: 'approval/decision' }>>()
  for (const e of events) {
    if (e.type === 'approval/request') {
      if (requested.has(e.data.callId)) problems.push(`R61: ${e.data.callId} requested twice`)
      requested.set(e.data.callId, e.seq)
    } else if (e.type === 'approval/decision') {
      const id = e.data.callId
      if (!requested.has(id)) problems.push(`R62: ${id} decided (seq ${e.seq}) with no request before it`)
      if (decided.has(id)) problems.push(`R62: ${id} decided twice`)
      decided.set(id, e)
      if (e.data.source.kind === 'system' && (e.data.decision !== 'denied' || e.data.reason !== 'timeout'))
        problems.push(`R66: the system decided ${id} ${e.data.decision} (${e.data.reason})`)
    } else if (e.type === 'tool/result') {
      const id = e.data.result.toolCallId
      const code = e.data.result.code
      const d = decided.get(id)?.data
      if (!requested.has(id)) {
        if (code === 'DENIED') problems.push(`R62: ${id} DENIED without a request`)
      } else if (d?.decision === 'denied') {
        if (code !== 'DENIED' || (d.reason !== undefined && !textOf(e).includes(d.reason)))
          problems.push(`R62: ${id} denied (${d.reason}) has result ${code}: ${textOf(e)}`)
      } else if (d?.decision === 'approved') {
        if (code === 'DENIED') problems.push(`R62: ${id} approved has a DENIED result`)
      } else if (code !== 'ABORTED') problems.push(`R64: ${id} undecided has result ${code}, not ABORTED`)
    }
  }
  return problems
}

export const checkRun = ({ run, processes, calls, fates }: RunResult): string[] => {
  const events = run.disk.events
  const problems = [...run.problems, ...checkResults(events), ...checkDecisions(events)]
  const approved = new Set(
    events.flatMap((e) =>
      e.type === 'approval/decision' && e.data.decision === 'approved' ? [e.data.callId] : [],
    ),
  )
  for (const p of processes) {
    for (const [id, n] of p.executed) {
      if (n > 1) problems.push(`V9: ${id} ran ${n} times in process ${p.index}`)
      if (!p.crashed && !approved.has(id))
        problems.push(`V9: ${id} ran in process ${p.index}, and the log never approved it`)
    }
    // An accepted decision is applied unless an input applied before it decided or aborted the
    // call: a send made later, from a subscriber of an input ahead of it, is placed depth-first
    // (docs/decisions.md, ordering), so it can overtake a decision the façade already accepted.
    for (const { callId, decision } of p.accepted) {
      const ended = p.durable.some(
        (e) =>
          (e.type === 'approval/decision' && e.data.callId === callId) ||
          (e.type === 'tool/result' &&
            e.data.result.toolCallId === callId &&
            e.data.result.code === 'ABORTED'),
      )
      if (!ended)
        problems.push(`R62: a decision ${decision} of ${callId} returned, and process ${p.index} wrote none`)
    }
    if (p.crashed) continue
    const books = createConservationTracker(p.initial)
    for (const e of p.live) books.step(e)
    if (books.outstanding.size > 0) problems.push(`R30: process ${p.index} ended with items outstanding`)
  }
  const delivered = new Map<string, number>()
  for (const e of events)
    if ((e.type === 'user/message' || e.type === 'steering/message') && e.data.id !== undefined)
      delivered.set(e.data.id, (delivered.get(e.data.id) ?? 0) + 1)
  for (const [id, sent] of calls.sent) {
    if ((delivered.get(id) ?? 0) > 1) problems.push(`R51: ${sent.text} entered the transcript twice`)
    const crashed = processes[sent.process]?.crashed === true
    if (crashed && !run.disk.holds(id)) continue
    const fate = fates.get(id)
    if (fate === undefined || !('kind' in fate)) {
      const why = fate === undefined ? 'it waits' : String(fate.rejected)
      problems.push(`R42: ${sent.text} (process ${sent.process}) has no fate in the last process: ${why}`)
      continue
    }
    const own = calls.settledIn.get(id)
    if (own !== undefined && !crashed && own.outcome.kind !== fate.kind)
      problems.push(
        `R42: ${sent.text} settled ${own.outcome.kind} in process ${own.process}, ${fate.kind} at the end`,
      )
  }
  return problems
}
