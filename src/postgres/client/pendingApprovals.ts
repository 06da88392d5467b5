import type { PendingApproval } from '../../contracts/approvals.js'
import type { SessionEvent } from '../../contracts/events.js'

const NONE: readonly PendingApproval[] = Object.freeze([])

/**
 * The pending approvals of a session as its transcript says (R61), folded event by event: the
 * `approval/request`s of the open step that have neither an `approval/decision` nor a
 * `tool/result` (a cancel answers a pending call with an `ABORTED` result and no decision, R64).
 * A new step or the turn's start or end leaves none. This is what the owner's `agent.approvals`
 * lists once its checkpoint is committed (reaching a pause is one, R65). No I/O.
 */
export class PendingApprovals {
  readonly #pending = new Map<string, PendingApproval>()
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
        break
      case 'approval/request':
        pending.set(event.data.callId, Object.freeze({ ...event.data, requestedSeq: event.seq }))
        break
      case 'approval/decision':
        pending.delete(event.data.callId)
        break
      case 'tool/result':
        pending.delete(event.data.result.toolCallId)
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
}
