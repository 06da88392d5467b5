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
import { decisionKey, kOf, requestKeys } from './pendingInLog.js'
import type { RunResult } from './run.js'

const textOf = (e: Extract<SessionEvent, { type: 'tool/result' }>) =>
  e.data.result.content.map((b) => (b.type === 'text' ? b.text : '')).join('')

/**
 * Calls are told apart by their tool argument `k` (unique in a run), never by the model's id,
 * which may repeat in a step or be empty; a `tool/result` belongs to the `tool/call` right
 * before it (R21, checked here too).
 */
const resultOwners = (events: readonly SessionEvent[]): Map<number, string> => {
  const owners = new Map<number, string>()
  events.forEach((e, i) => {
    const before = events[i - 1]
    if (e.type === 'tool/result' && before?.type === 'tool/call')
      owners.set(e.seq, kOf(before.data.call.arguments))
  })
  return owners
}

const checkResults = (events: readonly SessionEvent[]): string[] => {
  const problems: string[] = []
  const asked = events.flatMap((e) =>
    e.type === 'assistant/message'
      ? e.data.content.flatMap((b) => (b.type === 'tool-call' ? [kOf(b.arguments)] : []))
      : [],
  )
  const calls = new Map<string, number>()
  const results = new Map<string, number>()
  events.forEach((e, i) => {
    if (e.type === 'tool/call') {
      const k = kOf(e.data.call.arguments)
      calls.set(k, (calls.get(k) ?? 0) + 1)
      const next = events[i + 1]
      if (next?.type !== 'tool/result' || next.data.result.toolCallId !== e.data.call.id)
        problems.push(`R21: tool/call ${k} (seq ${e.seq}) is not followed by its result`)
      else results.set(k, (results.get(k) ?? 0) + 1)
    } else if (e.type === 'tool/result' && events[i - 1]?.type !== 'tool/call')
      problems.push(`R21: tool/result ${e.data.result.toolCallId} (seq ${e.seq}) follows no tool/call`)
  })
  for (const k of asked)
    if (calls.get(k) !== 1 || results.get(k) !== 1)
      problems.push(`V9: ${k} has ${calls.get(k) ?? 0} tool/call and ${results.get(k) ?? 0} tool/result`)
  return problems
}

const checkDecisions = (events: readonly SessionEvent[]): string[] => {
  const problems: string[] = []
  const requested = new Map<string, number>()
  const decided = new Map<string, Extract<SessionEvent, { type: 'approval/decision' }>>()
  // A decision names its call by its key; a request names k too (its arguments).
  const kByKey = new Map<string, string>()
  const owners = resultOwners(events)
  for (const e of events) {
    if (e.type === 'approval/request') {
      const k = kOf(e.data.arguments)
      if (requested.has(k)) problems.push(`R61: ${k} requested twice`)
      requested.set(k, e.seq)
      kByKey.set(decisionKey(e.data), k)
      if (e.data.index === undefined) problems.push(`R61: the request of ${k} does not say its place`)
    } else if (e.type === 'approval/decision') {
      const id = kByKey.get(decisionKey(e.data)) ?? `${e.data.callId}@${decisionKey(e.data)}`
      if (!requested.has(id)) problems.push(`R62: ${id} decided (seq ${e.seq}) with no request before it`)
      if (decided.has(id)) problems.push(`R62: ${id} decided twice`)
      decided.set(id, e)
      if (e.data.source.kind === 'system' && (e.data.decision !== 'denied' || e.data.reason !== 'timeout'))
        problems.push(`R66: the system decided ${id} ${e.data.decision} (${e.data.reason})`)
    } else if (e.type === 'tool/result') {
      const id = owners.get(e.seq) ?? e.data.result.toolCallId
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
  const keys = requestKeys(events)
  const approvedKeys = new Set(
    events.flatMap((e) =>
      e.type === 'approval/decision' && e.data.decision === 'approved' ? [decisionKey(e.data)] : [],
    ),
  )
  const approved = new Set([...keys].flatMap(([k, key]) => (approvedKeys.has(key) ? [k] : [])))
  for (const p of processes) {
    for (const [id, n] of p.executed) {
      if (n > 1) problems.push(`V9: ${id} ran ${n} times in process ${p.index}`)
      if (!p.crashed && !approved.has(id))
        problems.push(`V9: ${id} ran in process ${p.index}, and the log never approved it`)
    }
    // An accepted decision is applied unless an input applied before it decided or aborted the
    // call: a send made later, from a subscriber of an input ahead of it, is placed depth-first
    // (docs/decisions.md, ordering), so it can overtake a decision the façade already accepted.
    const owners = resultOwners(p.durable)
    for (const { key, k, decision } of p.accepted) {
      const ended = p.durable.some(
        (e) =>
          (e.type === 'approval/decision' && decisionKey(e.data) === key) ||
          (e.type === 'tool/result' && owners.get(e.seq) === k && e.data.result.code === 'ABORTED'),
      )
      if (!ended)
        problems.push(
          `R62: a decision ${decision} of ${k} (${key}) returned, and process ${p.index} wrote none`,
        )
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
