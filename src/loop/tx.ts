import type { AgentEvent, DurableDraft } from '../events.js'
import type { DistributiveOmit } from '../util/types.js'
import { copyState } from './copy.js'
import type { Effect, Output } from './inputs.js'
import type { DeliveryState } from './state.js'

/**
 * One reduction in progress: the state so far and the ordered outputs. A fresh `Tx` per input
 * keeps the reducer pure (the mutation never escapes `reduce`), while the handlers stay short.
 */
export class Tx {
  state: DeliveryState
  readonly out: Output[] = []
  private copied = false

  constructor(state: DeliveryState) {
    this.state = state
  }

  /** The first write of a reduction copies the state; later ones write into the copy. */
  set(patch: Partial<DeliveryState>): void {
    if (!this.copied) {
      this.state = Object.assign(copyState(this.state), patch)
      this.copied = true
    } else Object.assign(this.state, patch)
  }

  live(event: DistributiveOmit<AgentEvent, 'agentId'>): void {
    ;(event as { agentId?: string }).agentId = this.state.agentId
    this.out.push({ kind: 'live', event: event as AgentEvent })
  }

  durable(draft: DurableDraft): void {
    this.out.push({ kind: 'durable', draft })
  }

  effect(effect: Effect): void {
    this.out.push({ kind: 'effect', effect })
  }
}
