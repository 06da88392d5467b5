/**
 * Compactions after the run (R74, R75):
 *
 * - every `agent/compaction/start` has its `agent/compaction/end`, outside any turn; between them
 *   no durable event but the `compaction` itself is appended, and a `compaction` is appended only
 *   there;
 * - a `compaction` has `upToSeq` = the log's last seq when the phase began (so `upToSeq < seq`),
 *   and `keptFromSeq` either `upToSeq + 1` (nothing kept) or right after a `turn/end` of a turn the
 *   messages held (so `keptFromSeq <= upToSeq + 1`);
 * - the end's result says `compacted` with the event's data exactly when one was appended; a
 *   summariser that answered text writes `sum<n>`, one that threw, errored, answered '' or a block
 *   that is not text ends `error` right after an `agent/error`, unless a cancel aborted it first;
 * - the summariser is called at most once per phase and only inside one, and it is given a non-empty
 *   prefix of the reference messages of the log at that moment (referenceMessages.ts): for a phase
 *   that compacted, exactly the messages before `keptFromSeq` (an earlier summary included). No
 *   text of a send whose message was not in the log yet is among them (R75).
 */
import { isDeepStrictEqual } from 'node:util'
import type { Message } from '../../../src/index.js'
import type { Log } from '../log.js'
import { referenceHistory } from '../referenceMessages.js'
import { openTurnOf } from '../sendCall.js'
import type { SummaryCall } from './log.js'
import { type Phase, phasesOf } from './phases.js'
import { summaryText } from './summarizer.js'

const FAILING = new Set(['throw', 'error', 'empty', 'nonText'])

export const checkCompactions = (log: Log): string[] => {
  const problems: string[] = []
  const phases = phasesOf(log)
  for (const phase of phases) problems.push(...checkPhase(log, phase))
  const inside = new Set(phases.flatMap((p) => p.appended.map((x) => x.e)))
  for (const e of log.durable)
    if (e.type === 'compaction' && !inside.has(e))
      problems.push(`R74: compaction seq ${e.seq} appended outside a compaction phase`)
  for (const s of log.history.summaries)
    if (!phases.some((p) => p.summaries.includes(s)))
      problems.push(`R74: summariser call ${s.n} made outside a compaction phase`)
  return problems
}

const checkPhase = (log: Log, phase: Phase): string[] => {
  const problems: string[] = []
  const p = (s: string) => problems.push(`R74: compaction phase at #${phase.start}: ${s}`)
  if (phase.end < 0) p('never ended')
  if (openTurnOf(log.durable.slice(0, phase.durableAtStart)) !== undefined) p('began inside a turn')
  const written = phase.appended.filter((x) => x.e.type === 'compaction')
  if (phase.appended.length > written.length || written.length > 1)
    p(`appended [${phase.appended.map((x) => x.e.type)}] (only one compaction may be)`)
  const event = written[0]?.e
  const compaction = event?.type === 'compaction' ? event : undefined
  const result = phase.result
  if (compaction) {
    const { upToSeq, keptFromSeq } = compaction.data
    if (upToSeq !== phase.durableAtStart || upToSeq >= compaction.seq)
      p(`upToSeq ${upToSeq}, yet the log held ${phase.durableAtStart} events (its seq ${compaction.seq})`)
    const ends = turnEndsOf(log, phase.durableAtStart)
    if (keptFromSeq !== upToSeq + 1 && !ends.includes(keptFromSeq - 1))
      p(`keptFromSeq ${keptFromSeq} is neither ${upToSeq + 1} nor right after a turn/end [${ends}]`)
    if (result?.kind !== 'compacted' || !isDeepStrictEqual({ kind: 'compacted', ...compaction.data }, result))
      p(`the end's result ${result?.kind} does not carry the compaction seq ${compaction.seq}`)
  } else if (result?.kind === 'compacted') p('the result says compacted, yet nothing was appended')
  if (phase.summaries.length > 1) p(`${phase.summaries.length} summariser calls`)
  const call = phase.summaries[0]
  if (call) problems.push(...checkGiven(log, call, compaction?.data.keptFromSeq))
  if (
    call &&
    compaction &&
    !isDeepStrictEqual(compaction.data.summary, [{ type: 'text', text: summaryText(call.n) }])
  )
    p(`summary ${JSON.stringify(compaction.data.summary)}, the summariser answered ${summaryText(call.n)}`)
  if (call && compaction && call.plan.kind !== 'ok')
    p(`compacted, yet the summariser's plan was ${call.plan.kind}`)
  if (call && FAILING.has(call.plan.kind) && result?.kind !== 'error' && result?.kind !== 'aborted')
    p(`summariser ${call.plan.kind} ended ${result?.kind}`)
  if (call?.plan.kind === 'ok' && result?.kind !== 'compacted' && result?.kind !== 'aborted')
    p(`a summary text ended ${result?.kind}`)
  if (!call && result && result.kind !== 'skipped' && result.kind !== 'aborted')
    p(`no summariser call, yet the result is ${result.kind}`)
  if (result?.kind === 'error') {
    const before = log.timeline[phase.end - 1]
    if (!(before && 'live' in before && before.live.type === 'agent/error'))
      p('R75: ended error without an agent/error right before')
  }
  return problems
}

/** Seqs of the `turn/end`s among the first `length` durable events. */
const turnEndsOf = (log: Log, length: number): number[] =>
  log.durable.slice(0, length).flatMap((e) => (e.type === 'turn/end' ? [e.seq] : []))

const textsOf = (messages: readonly Message[]): string => JSON.stringify(messages)

/** R74, R75: what the summariser was given, against the log as it was at the call. */
const checkGiven = (log: Log, call: SummaryCall, keptFromSeq: number | undefined): string[] => {
  const problems: string[] = []
  const p = (s: string) => problems.push(`R75: summariser call ${call.n}: ${s}`)
  const events = log.durable.slice(0, call.durable)
  const { entries } = referenceHistory(events)
  const given = call.messages
  const prefix = entries.slice(0, given.length).map((e) => e.message)
  if (given.length === 0) p('given no messages')
  else if (!isDeepStrictEqual([...given], prefix))
    p(`given ${textsOf(given)}, not a prefix of the messages then ${textsOf(entries.map((e) => e.message))}`)
  if (keptFromSeq !== undefined) {
    const before = entries.filter((e) => e.summary || e.seq < keptFromSeq).map((e) => e.message)
    if (given.length !== before.length)
      p(`given ${given.length} messages, ${before.length} are before keptFromSeq ${keptFromSeq}`)
  }
  // Texts are unique per send ("f3", a rewrite "f3*"): none of one not yet in the log may show.
  const inLog = new Set<string>(
    events.flatMap((e) =>
      (e.type === 'user/message' || e.type === 'steering/message') && e.data.id ? [e.data.id] : [],
    ),
  )
  const json = textsOf(given)
  for (const [id, sent] of log.sent)
    if (!inLog.has(id) && (json.includes(`"text":"${sent.text}"`) || json.includes(`"text":"${sent.text}*"`)))
      p(`given "${sent.text}" (${id}), which was not delivered yet`)
  return problems
}
