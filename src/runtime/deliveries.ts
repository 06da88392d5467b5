/**
 * Counts the inputs that entered a driver's pipeline and those whose outputs were all delivered,
 * and holds the `whenIdle()` calls until both agree and the state is quiescent (R28). An input
 * sent from a subscriber counts as entered before the delivery that sent it ends, so the agent is
 * not idle while it waits in the trampoline.
 */
export class Deliveries {
  #entered = 0
  #delivered = 0
  #waiters: (() => void)[] | undefined

  /** Inputs wait in the trampoline, or a reduction's outputs are still being delivered. */
  get delivering(): boolean {
    return this.#entered !== this.#delivered
  }

  entered(): void {
    this.#entered++
  }

  /** All outputs of one input went out. */
  delivered(): void {
    this.#delivered++
  }

  /** Resolves the waiting `whenIdle()` calls if nothing waits and the state is quiescent. */
  settle(quiescent: () => boolean): void {
    if (this.#waiters !== undefined && !this.delivering && quiescent()) this.end()
  }

  whenIdle(idle: boolean): Promise<void> {
    if (idle) return Promise.resolve()
    return new Promise<void>((resolve) => {
      this.#waiters ??= []
      this.#waiters.push(resolve)
    })
  }

  /** Resolves every waiting `whenIdle()`: the agent is idle, or its pipeline ended. */
  end(): void {
    const waiters = this.#waiters ?? []
    this.#waiters = undefined
    for (const resolve of waiters) resolve()
  }
}
