import type { PendingApproval } from '../contracts/approvals.js'
import type { SessionEvent } from '../contracts/events.js'
import { selectPendingCalls } from '../machine/selectors.js'
import type { DeliveryState } from '../machine/state.js'
import { callKey } from '../messages/callKey.js'

const NONE: readonly PendingApproval[] = Object.freeze([])

/**
 * `agent.approvals` (R61): the pending calls of the state, each with the `seq` of its
 * `approval/request`. The same frozen list is returned while nothing changed, so `approvals$`
 * can skip repeats by identity.
 */
export class ApprovalsView {
  #activity: DeliveryState['activity'] = null
  #length = -1
  #list: readonly PendingApproval[] = NONE

  current(state: DeliveryState, events: readonly SessionEvent[]): readonly PendingApproval[] {
    if (state.activity === this.#activity && events.length === this.#length) return this.#list
    this.#activity = state.activity
    this.#length = events.length
    // A call is listed once its request is in the transcript: while a step's requests are being
    // delivered one by one, subscribers of the first see only the requests written so far.
    const next: PendingApproval[] = []
    for (const { turn, step, index, call } of selectPendingCalls(state)) {
      const requestedSeq = requestSeq(events, turn, step, index, call.id)
      if (requestedSeq > 0)
        next.push(
          Object.freeze({
            turn,
            step,
            callId: call.id,
            index,
            key: callKey(turn, step, index),
            name: call.name,
            arguments: call.arguments,
            requestedSeq,
          }),
        )
    }
    if (!sameCalls(next, this.#list)) this.#list = next.length === 0 ? NONE : Object.freeze(next)
    return this.#list
  }
}

/**
 * The request is among the last events of the log: searched from the end, by the call's place (a
 * log written before requests held it names the call by its id).
 */
const requestSeq = (
  events: readonly SessionEvent[],
  turn: number,
  step: number,
  index: number,
  callId: string,
): number => {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]
    if (e?.type === 'step/start') return 0
    if (
      e?.type === 'approval/request' &&
      e.data.turn === turn &&
      e.data.step === step &&
      (e.data.index === undefined ? e.data.callId === callId : e.data.index === index)
    )
      return e.seq
  }
  return 0
}

const sameCalls = (a: readonly PendingApproval[], b: readonly PendingApproval[]): boolean =>
  a.length === b.length && a.every((x, i) => x.key === b[i]?.key)
