import type { PendingApproval } from '../../contracts/approvals.js'
import type { SessionEvent } from '../../contracts/events.js'
import type { ToolCallBlock } from '../../contracts/messages.js'
import { callKey } from '../../messages/callKey.js'

const NONE: readonly PendingApproval[] = Object.freeze([])

/**
 * The pending approvals of a session as its transcript says (R61), folded event by event: the
 * `approval/request`s of the open step that have neither an `approval/decision` nor a
 * `tool/result` (a cancel answers a pending call with an `ABORTED` result and no decision, R64).
 * A new step or the turn's start or end leaves none. This is what the owner's `agent.approvals`
 * lists once its checkpoint is committed (reaching a pause is one, R65). No I/O.
 *
 * Calls are kept by their place in the step, never by the model's id, which may repeat or be
 * empty: the events' `index`, or in a log written before they held it, the first call with that
 * id. Results are recorded in model order (R21), so the n-th `tool/result` answers call n.
 */
export class PendingApprovals {
  readonly #pending = new Map<number, PendingApproval>()
  #calls: readonly ToolCallBlock[] = []
  #results = 0
  /** Made again only when the pending calls change, so followers can skip repeats. */
  #list: readonly PendingApproval[] = NONE

  /** Takes the next event, in `seq` order. */
  add(event: SessionEvent): void {
    const pending = this.#pending
    const before = pending.size
    switch (event.type) {
      case 'turn/start':
      case 'turn/end':
      case 'step/start':
        pending.clear()
        this.#calls = []
        this.#results = 0
        break
      case 'assistant/message':
        this.#calls = event.data.content.filter((b): b is ToolCallBlock => b.type === 'tool-call')
        return
      case 'approval/request': {
        const { turn, step } = event.data
        const index = event.data.index ?? this.#unrequested(event.data.callId)
        const key = callKey(turn, step, index)
        pending.set(index, Object.freeze({ ...event.data, index, key, requestedSeq: event.seq }))
        break
      }
      case 'approval/decision':
        pending.delete(event.data.index ?? this.#pendingWith(event.data.callId))
        break
      case 'tool/result':
        pending.delete(this.#results++)
        break
      default:
        return
    }
    if (event.type === 'approval/request' || pending.size !== before)
      this.#list = pending.size === 0 ? NONE : Object.freeze([...pending.values()])
  }

  /** The calls that wait, in the order they were requested (the model's), frozen. */
  get list(): readonly PendingApproval[] {
    return this.#list
  }

  /** The first call of the step with this id that has no request yet (a log without indexes). */
  #unrequested(callId: string): number {
    return this.#calls.findIndex((call, i) => call.id === callId && !this.#pending.has(i))
  }

  /** The first pending call with this id (a log without indexes). */
  #pendingWith(callId: string): number {
    for (const [index, approval] of this.#pending) if (approval.callId === callId) return index
    return -1
  }
}
