import type { Command, Input } from '../machine/inputs.js'
import type { AcceptedSend } from '../messages/acceptSend.js'

/**
 * Decisions, and sends with `onApproval: 'deny'`, that wait in the trampoline (R62, R63). Made
 * earlier in a delivery, they decide before a later call of that delivery is applied, so the
 * calls they will decide are not pending for it: deciding one again must throw, as at top level.
 */
export class DecisionsAhead {
  // Made on first use: most agents never decide anything from a subscriber.
  #callIds: Set<string> | undefined
  #denying = 0

  entered(send: AcceptedSend): void {
    if (send.options.onApproval === 'deny') this.#denying++
  }

  commanded(command: Command): void {
    if (command.type === 'decide') this.#callIds = (this.#callIds ?? new Set()).add(command.callId)
  }

  /** The input leaves the trampoline: from now on the state shows what it decided. */
  reduced(input: Input): void {
    if ((input.type === 'queue' || input.type === 'inject') && input.deny) this.#denying--
    else if (input.type === 'decide') this.#callIds?.delete(input.callId)
  }

  /** Whether something still in the trampoline will decide `callId`. */
  has(callId: string): boolean {
    return this.#denying > 0 || this.#callIds?.has(callId) === true
  }
}
