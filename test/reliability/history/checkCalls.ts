/**
 * `compact()`, `rollback()` and automatic compaction after the run (R74, R76, R77):
 *
 * - `compact()` resolves with the result of the first `agent/compaction/end` from its call on
 *   (the compaction it started or joined), `aborted` when none came; made at top level while
 *   idle, it starts at once; after `dispose()` resolved it throws `AgentDisposedError`;
 * - `rollback(n)` at top level: `n < 1` is `InvalidInputError`, anything while not idle
 *   `AgentBusyError`, more turns than the messages hold `InvalidInputError`; a refused call
 *   appends and publishes nothing and leaves the events, the messages and `agent.inbox` as they
 *   were. An accepted one appends exactly `rollback {toTurn}`, `toTurn` counted back over the
 *   reference timeline (0: before its first turn), and nothing else;
 * - R76: after a turn whose last request reported more `inputTokens` than the threshold, a
 *   compaction starts before the next admitted turn (unless `dispose()` was called); a retry turn
 *   is not admitted, it opens at once (R24).
 */
import { isDeepStrictEqual } from 'node:util'
import {
  AgentBusyError,
  AgentDisposedError,
  InvalidInputError,
  type SessionEvent,
  type Usage,
} from '../../../src/index.js'
import { describeError, type Log } from '../log.js'
import { referenceHistory, referenceMessages } from '../referenceMessages.js'
import type { AutoCompaction } from '../schedule.js'
import type { RollbackCall } from './log.js'

export const checkCompactCalls = (log: Log): string[] => {
  const problems: string[] = []
  for (const c of log.history.compacts) {
    const p = (s: string) => problems.push(`R74: compact() from ${c.origin} at #${c.position}: ${s}`)
    if (c.thrown !== undefined) {
      if (!(c.finished && c.thrown instanceof AgentDisposedError)) p(`threw ${describeError(c.thrown)}`)
      continue
    }
    if (c.finished) p('accepted after dispose() resolved (V2)')
    if (c.rejected !== undefined) p(`rejected with ${describeError(c.rejected)}`)
    const end = log.timeline
      .slice(c.position)
      .find((x) => 'live' in x && x.live.type === 'agent/compaction/end')
    const expected =
      end && 'live' in end && end.live.type === 'agent/compaction/end' ? end.live.result : { kind: 'aborted' }
    if (c.result && !isDeepStrictEqual(c.result, expected))
      p(`resolved ${c.result.kind}, the next compaction/end says ${expected.kind}`)
    const started = log.timeline
      .slice(c.position, c.end)
      .some((x) => 'live' in x && x.live.type === 'agent/compaction/start')
    if (c.origin === 'step' && c.status === 'idle' && !c.disposeCalled && !started)
      p('did not start at once while idle')
  }
  return problems
}

const refused = (r: RollbackCall): string | undefined => {
  if (r.finished) return 'AgentDisposedError'
  if (r.turns < 1) return 'InvalidInputError'
  if (r.status !== 'idle') return 'AgentBusyError'
  return undefined
}
const KINDS = { AgentDisposedError, InvalidInputError, AgentBusyError } as const

export const checkRollbacks = (log: Log): string[] => {
  const problems: string[] = []
  for (const r of log.history.rollbacks) {
    const p = (s: string) =>
      problems.push(`R77: rollback(${r.turns}) at #${r.position} while ${r.status}: ${s}`)
    if (r.disposeCalled && !r.finished) continue
    const { timeline } = referenceHistory(log.durable.slice(0, r.before.events))
    const expectedError = refused(r) ?? (r.turns > timeline.length ? 'InvalidInputError' : undefined)
    const appended = log.timeline.slice(r.position, r.end)
    if (expectedError !== undefined || r.error !== undefined) {
      if (expectedError === undefined) p(`threw ${describeError(r.error)} (timeline [${timeline}])`)
      else if (!(r.error instanceof KINDS[expectedError as keyof typeof KINDS]))
        p(`expected ${expectedError}, got ${r.error === undefined ? 'no error' : describeError(r.error)}`)
      if (r.error === undefined) continue
      if (appended.length > 0 || r.after.events !== r.before.events || r.after.inbox !== r.before.inbox)
        p('threw and still changed something')
      if (!isDeepStrictEqual(r.after.messages, r.before.messages)) p('threw and still changed the messages')
      continue
    }
    const toTurn = r.turns === timeline.length ? 0 : timeline[timeline.length - r.turns - 1]
    const events = appended.flatMap((x): SessionEvent[] => ('durable' in x ? [x.durable] : []))
    const only = events[0]
    if (events.length !== 1 || only?.type !== 'rollback' || only.data.toTurn !== toTurn)
      p(`appended [${events.map((e) => e.type)}], expected rollback {toTurn: ${toTurn}} of [${timeline}]`)
    if (r.after.inbox !== r.before.inbox) p('changed the inbox')
    const then = referenceMessages(log.durable.slice(0, r.after.events))
    if (!isDeepStrictEqual(r.after.messages, then)) p('session.messages() then differs from the reference')
  }
  return problems
}

/** The usage of the last request of each turn, by the turn's `turn/end` index in the log. */
const lastUsage = (durable: readonly SessionEvent[]): Map<number, Usage | undefined> => {
  const ends = new Map<number, Usage | undefined>()
  let usage: Usage | undefined
  durable.forEach((e, i) => {
    if (e.type === 'turn/start') usage = undefined
    if ((e.type === 'assistant/message' || e.type === 'step/end') && e.data.usage) usage = e.data.usage
    if (e.type === 'turn/end') ends.set(i, usage)
  })
  return ends
}

export const checkAutoCompaction = (log: Log, auto: AutoCompaction | null | undefined): string[] => {
  if (!auto) return []
  const problems: string[] = []
  const durableAt: number[] = []
  log.timeline.forEach((x, at) => {
    if ('durable' in x) durableAt.push(at)
  })
  for (const [index, usage] of lastUsage(log.durable)) {
    if (!usage || usage.inputTokens <= auto.whenInputTokensExceed) continue
    const from = durableAt[index] as number
    // A retry turn opens at once, with no admission (R24): the compaction waits for the next one.
    const next = log.durable.findIndex(
      (e, i) => i > index && e.type === 'turn/start' && e.data.trigger.kind !== 'retry',
    )
    if (next < 0 || log.disposeCalls.some((d) => d.position < (durableAt[next] as number))) continue
    const started = log.timeline
      .slice(from, durableAt[next])
      .some((x) => 'live' in x && x.live.type === 'agent/compaction/start')
    const turn = log.durable[index]
    if (!started)
      problems.push(
        `R76: turn ${turn?.type === 'turn/end' ? turn.data.turn : '?'} ended with inputTokens ${usage.inputTokens} > ${auto.whenInputTokensExceed}, yet the next turn began without a compaction`,
      )
  }
  return problems
}
