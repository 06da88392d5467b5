import type { SessionEvent } from '../contracts/events.js'
import type { Outcome } from '../contracts/inbox.js'
import type { AgentMessageId } from '../contracts/messages.js'

/** The id a durable event carries, if it carries a message's (a `user/message` or `steering/message`). */
export const carriedId = (event: SessionEvent): AgentMessageId | undefined =>
  event.type === 'user/message' || event.type === 'steering/message' ? event.data.id : undefined

/**
 * What became of a message that entered the transcript at `events[index]` (R42), read from the
 * transcript alone, so a resumed agent answers exactly as the one that wrote it:
 *
 * - a `user/message` that the open turn's `turn/start` names as its prompt: delivered as the
 *   prompt of that turn;
 * - any other `user/message`: delivered as context, with the turn it is inside, if any;
 * - a `steering/message`: delivered as steering of its turn, with the step whose `step/end`
 *   follows it (`undefined` while none follows yet: the turn is still running).
 *
 * A log written before `turn/start` named its prompt has its prompts read as context.
 */
export const deliveredOutcome = (events: readonly SessionEvent[], index: number): Outcome | undefined => {
  const outcome = deliveredAt(events, index)
  if (outcome?.kind !== 'delivered' || !rolledBackAfter(events, index, outcome.turn)) return outcome
  return { ...outcome, rolledBack: true }
}

/**
 * Whether a `rollback` after `index` undid `turn` (R77). Context delivered outside a turn was
 * undone when the rollback went back to the end of a turn that ended before it was appended (or
 * to before any turn).
 */
const rolledBackAfter = (
  events: readonly SessionEvent[],
  index: number,
  turn: number | undefined,
): boolean => {
  let before = 0 // the last turn that ended before `index`, for context outside a turn
  if (turn === undefined)
    for (let i = index - 1; i >= 0 && before === 0; i--) {
      const e = events[i] as SessionEvent
      if (e.type === 'turn/end') before = e.data.turn
    }
  for (let i = index + 1; i < events.length; i++) {
    const e = events[i] as SessionEvent
    if (e.type !== 'rollback') continue
    if (turn !== undefined ? e.data.toTurn < turn : e.data.toTurn <= before) return true
  }
  return false
}

const deliveredAt = (events: readonly SessionEvent[], index: number): Outcome | undefined => {
  const event = events[index]
  if (event?.type === 'steering/message') {
    const step = stepAfter(events, index, event.data.turn)
    if (step === undefined) return undefined
    const { turn } = event.data
    return event.data.interrupt
      ? { kind: 'delivered', as: 'steering', turn, step, seq: event.seq, interrupted: { turn, step } }
      : { kind: 'delivered', as: 'steering', turn, step, seq: event.seq }
  }
  if (event?.type !== 'user/message' || event.data.id === undefined) return undefined
  const start = openTurnAt(events, index)
  if (start?.type !== 'turn/start') return { kind: 'delivered', as: 'context', seq: event.seq }
  const { turn, trigger } = start.data
  return trigger.kind === 'message' && trigger.id === event.data.id
    ? { kind: 'delivered', as: 'prompt', turn, seq: event.seq }
    : { kind: 'delivered', as: 'context', seq: event.seq, turn }
}

/** The `turn/start` of the turn open at `index`, if one is. */
const openTurnAt = (events: readonly SessionEvent[], index: number): SessionEvent | undefined => {
  for (let i = index - 1; i >= 0; i--) {
    const e = events[i] as SessionEvent
    if (e.type === 'turn/start') return e
    if (e.type === 'turn/end') return undefined
  }
  return undefined
}

/**
 * The step whose `step/end` follows `index` in `turn`; when the turn ends first (it was cancelled
 * before its next step closed), the last step it started, or 0.
 */
const stepAfter = (events: readonly SessionEvent[], index: number, turn: number): number | undefined => {
  let started = 0
  for (let i = index + 1; i < events.length; i++) {
    const e = events[i] as SessionEvent
    if (e.type === 'step/end' && e.data.turn === turn) return e.data.step
    if (e.type === 'step/start' && e.data.turn === turn) started = e.data.step
    if (e.type === 'turn/end' && e.data.turn === turn) return started || lastStepBefore(events, index, turn)
  }
  return undefined
}

const lastStepBefore = (events: readonly SessionEvent[], index: number, turn: number): number => {
  for (let i = index - 1; i >= 0; i--) {
    const e = events[i] as SessionEvent
    if (e.type === 'step/start' && e.data.turn === turn) return e.data.step
    if (e.type === 'turn/start') return 0
  }
  return 0
}
