/**
 * R42 after the final `dispose()`: every id a send returned has its `agent.outcome(id)` settled
 * (asked right after the send, and again at the end: the same fate), and the fate agrees with
 * the events and the transcript:
 *
 * - delivered as the prompt ⇔ its `user/message` inside the turn whose `turn/start` names it;
 * - delivered as steering ⇔ its `steering/message` (turn, seq; step: the next `step/end` of that
 *   turn, or the last step the turn started when it ended first; `interrupted`: that step, when
 *   the message is marked `interrupt`, R68);
 * - delivered as context ⇔ any other `user/message` with the id (seq; turn when inside one);
 * - discarded ⇔ exactly one `discard` naming the id, with that reason (a withdrawn staged
 *   context has no event: it is discarded `removed` after a remove named it, V8);
 * - blocked ⇔ claimed (dequeued from the queue), never in the transcript, not discarded;
 * - one fate only: appended at most once, and never both appended and discarded;
 * - R77: asked after the run, a delivery a later rollback undid says `rolledBack: true`; asked
 *   at the send, it may have settled before that rollback, without the mark.
 */
import { isDeepStrictEqual } from 'node:util'
import type { AgentEvent, Outcome, SessionEvent } from '../../src/index.js'
import { describeError, type Log } from './log.js'

export type Asked = { settled?: Outcome; rejected?: unknown }

const same = (a: Outcome, b: Outcome): boolean => {
  const x = a as Record<string, unknown>
  const y = b as Record<string, unknown>
  const keys = new Set([...Object.keys(x), ...Object.keys(y)])
  return [...keys].every((k) => isDeepStrictEqual(x[k], y[k]))
}
const show = (o: Outcome | undefined): string => {
  if (!o) return 'nothing'
  const { reason, ...rest } = o as Record<string, unknown>
  return (
    JSON.stringify(rest) +
    (reason === undefined ? '' : ` (reason ${typeof reason === 'string' ? reason : typeof reason})`)
  )
}

/** The step a steering at `index` counts for (see the module comment). */
const stepOf = (durable: readonly SessionEvent[], index: number, turn: number): number | undefined => {
  let started = 0
  for (let i = 0; i < durable.length; i++) {
    const e = durable[i] as SessionEvent
    if (e.type === 'step/start' && e.data.turn === turn) started = e.data.step
    if (i <= index) continue
    if (e.type === 'step/end' && e.data.turn === turn) return e.data.step
    if (e.type === 'turn/end' && e.data.turn === turn) return started
  }
  return undefined
}

/**
 * R77: a message delivered in turn t was rolled back when a later `rollback` went back to before
 * t; one delivered outside a turn, when a later `rollback` went back to the end of a turn that
 * ended before it (or to before any turn).
 */
const rolledBack = (durable: readonly SessionEvent[], at: number, turn: number | undefined): boolean => {
  let before = 0
  for (const e of durable.slice(0, at)) if (e.type === 'turn/end') before = e.data.turn
  return durable
    .slice(at + 1)
    .some(
      (e) => e.type === 'rollback' && (turn === undefined ? e.data.toTurn <= before : e.data.toTurn < turn),
    )
}

/** A delivered fate, marked `rolledBack` when a later rollback undid it (R77). */
const marked = (durable: readonly SessionEvent[], at: number, fate: Outcome): Outcome =>
  fate.kind === 'delivered' && rolledBack(durable, at, 'turn' in fate ? fate.turn : undefined)
    ? { ...fate, rolledBack: true }
    : fate

/** The fate as it was before any rollback: what an outcome settled before one says. */
const unmarked = (fate: Outcome): Outcome => {
  if (fate.kind !== 'delivered' || !fate.rolledBack) return fate
  const { rolledBack: _, ...rest } = fate
  return rest as Outcome
}

/** What the logs say became of `id` (as asked after the run), or why they say nothing consistent. */
const fateOf = (log: Log, id: string): Outcome | string => {
  const fate = deliveredOrNot(log, id)
  const at = log.durable.findIndex(
    (e) => (e.type === 'user/message' || e.type === 'steering/message') && e.data.id === id,
  )
  return typeof fate === 'string' || at < 0 ? fate : marked(log.durable, at, fate)
}

const deliveredOrNot = (log: Log, id: string): Outcome | string => {
  const durable = log.durable
  const appended = (e: SessionEvent) =>
    (e.type === 'user/message' || e.type === 'steering/message') && e.data.id === id
  const at = durable.findIndex(appended)
  const times = durable.filter(appended).length
  if (times > 1) return `appended ${times} times`
  const discarded = log.live.some(
    (e) => e.type === 'agent/inbox/discard' && e.messages.some((m) => m.id === id),
  )
  if (times > 0 && discarded) return 'both appended and discarded'
  const event = durable[at]
  if (event?.type === 'steering/message') {
    const step = stepOf(durable, at, event.data.turn)
    if (step === undefined) return `steering seq ${event.seq} with no step/end or turn/end after it`
    const steering = {
      kind: 'delivered',
      as: 'steering',
      turn: event.data.turn,
      step,
      seq: event.seq,
    } as const
    // R68: a steer that cut the step it was drained into names that step.
    return event.data.interrupt ? { ...steering, interrupted: { turn: event.data.turn, step } } : steering
  }
  if (event?.type === 'user/message') {
    let start: SessionEvent | undefined
    for (let i = at - 1; i >= 0 && !start; i--) {
      const e = durable[i] as SessionEvent
      if (e.type === 'turn/end') break
      if (e.type === 'turn/start') start = e
    }
    if (start?.type !== 'turn/start') return { kind: 'delivered', as: 'context', seq: event.seq }
    const { turn, trigger } = start.data
    return trigger.kind === 'message' && trigger.id === id
      ? { kind: 'delivered', as: 'prompt', turn, seq: event.seq }
      : { kind: 'delivered', as: 'context', seq: event.seq, turn }
  }
  const discards = log.live.filter(
    (e): e is Extract<AgentEvent, { type: 'agent/inbox/discard' }> =>
      e.type === 'agent/inbox/discard' && e.messages.some((m) => m.id === id),
  )
  if (discards.length > 1) return `${discards.length} discards name it`
  if (discards[0]) return { kind: 'discarded', reason: discards[0].reason }
  const sent = log.sent.get(id)
  if (sent?.kind === 'inject') {
    const removed = log.controls.some((c) => c.kind === 'remove' && c.id === id && c.error === undefined)
    return removed ? { kind: 'discarded', reason: 'removed' } : 'an inject neither appended nor removed'
  }
  const last = [...log.live]
    .reverse()
    .find(
      (e) => (e.type === 'agent/inbox/enqueue' || e.type === 'agent/inbox/dequeue') && e.message.id === id,
    )
  if (last?.type === 'agent/inbox/dequeue') return { kind: 'blocked', reason: undefined }
  return `still ${last ? 'waiting' : 'never enqueued'}`
}

export const checkOutcomes = (log: Log, late: ReadonlyMap<string, Asked>): string[] => {
  const problems: string[] = []
  for (const [id, sent] of log.sent) {
    const p = (s: string) => problems.push(`R42: ${sent.kind}("${sent.text}") (${id}): ${s}`)
    const early = log.outcomes.get(id)
    const end = late.get(id)
    for (const [when, asked] of [
      ['asked at the send', early],
      ['asked after dispose()', end],
    ] as const) {
      if (asked?.rejected !== undefined) p(`outcome ${when} rejected: ${describeError(asked.rejected)}`)
      else if (!asked?.settled) p(`outcome ${when} never settled`)
    }
    const outcome = early?.settled
    if (!outcome) continue
    // R77: asked before a rollback, it may have settled before it too (then without rolledBack).
    if (end?.settled && !same(unmarked(outcome), unmarked(end.settled)))
      p(`settled ${show(outcome)} at first, then ${show(end.settled)}`)
    const fate = fateOf(log, id)
    if (typeof fate === 'string') {
      p(`the logs show no single fate (${fate}); outcome ${show(outcome)}`)
      continue
    }
    if (fate.kind === 'blocked') {
      if (outcome.kind !== 'blocked') p(`outcome ${show(outcome)}, but it was claimed and never admitted`)
      continue
    }
    if (!same(outcome, fate) && !same(outcome, unmarked(fate)))
      p(`outcome ${show(outcome)}, the logs say ${show(fate)}`)
    if (end?.settled && !same(end.settled, fate))
      p(`R77: outcome asked after dispose() ${show(end.settled)}, the logs say ${show(fate)}`)
  }
  return problems
}
