import type { Command, Input } from '../machine/inputs.js'
import type { AcceptedSend } from '../messages/acceptSend.js'

/**
 * What waits in the trampoline and will decide or end pending approvals (R62–R64): a decision
 * (its call), and a send with `onApproval: 'deny'`, a cancel, an interrupting send or a dispose
 * (every pending call). Made earlier in a delivery, they are applied before a later call of that
 * delivery, so the calls they name are not pending for it: deciding one must throw, as it does at
 * top level, where the trampoline has drained before the call returns.
 */
export class DecisionsAhead {
  // Made on first use: most agents never decide anything from a subscriber.
  #callIds: Set<string> | undefined
  #all = 0

  entered({ options }: AcceptedSend): void {
    if (options.onApproval === 'deny' || options.ifBusy === 'interrupt') this.#all++
  }

  commanded(command: Command): void {
    if (command.type === 'decide' || command.type === 'cancel-call')
      this.#callIds = (this.#callIds ?? new Set()).add(command.callId)
    else if (command.type === 'cancel' || command.type === 'dispose') this.#all++
  }

  /** The input leaves the trampoline: from now on the state shows what it decided. */
  reduced(input: Input): void {
    if (input.type === 'decide' || input.type === 'cancel-call') this.#callIds?.delete(input.callId)
    else if (input.type === 'cancel' || input.type === 'dispose') this.#all--
    else if (input.type === 'queue' && (input.deny || input.interrupt)) this.#all--
    else if (input.type === 'inject' && input.deny) this.#all--
  }

  /** Whether something still in the trampoline will decide `callId`. */
  has(callId: string): boolean {
    return this.#all > 0 || this.#callIds?.has(callId) === true
  }
}
