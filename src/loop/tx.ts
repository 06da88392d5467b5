import type { AgentEvent, DurableDraft } from '../events.js'
import type { DistributiveOmit } from '../util/types.js'
import type { Effect, Output } from './inputs.js'
import type { DeliveryState } from './state.js'

/**
 * One reduction in progress: the state so far and the ordered outputs. A fresh `Tx` per input
 * keeps the reducer pure (the mutation never escapes `reduce`), while the handlers stay short.
 */
export class Tx {
  state: DeliveryState
  readonly out: Output[] = []

  constructor(state: DeliveryState) {
    this.state = state
  }

  set(patch: Partial<DeliveryState>): void {
    this.state = { ...this.state, ...patch }
  }

  live(event: DistributiveOmit<AgentEvent, 'agentId'>): void {
    this.out.push({ kind: 'live', event: { ...event, agentId: this.state.agentId } as AgentEvent })
  }

  durable(draft: DurableDraft): void {
    this.out.push({ kind: 'durable', draft })
  }

  effect(effect: Effect): void {
    this.out.push({ kind: 'effect', effect })
  }
}
