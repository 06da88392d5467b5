import type { AgentEvent, DurableDraft } from '../contracts/events.js'
import type { InboxRecord, Outcome } from '../contracts/inbox.js'
import type { AgentMessageId } from '../contracts/messages.js'
import type { Effect } from './effects.js'
import type { Output } from './outputs.js'
import { copyState } from './records.js'
import type { DeliveryState } from './state.js'
import { foldUsage } from './usageFold.js'

/**
 * One reduction in progress: the state so far and the ordered outputs. A fresh `Reduction` per input
 * keeps the reducer pure (the mutation never escapes `reduce`), while the handlers stay short.
 */
type Writable<T> = { -readonly [K in keyof T]: T[K] }

const NO_OUTPUT: readonly Output[] = Object.freeze([])

/** The acceptance window opened or closed before output `at` (after the last when `at === out.length`). */
export type WindowMove = { readonly at: number; readonly open: boolean }

export class Reduction {
  state: DeliveryState
  /** The outputs so far; `reduce` returns the `Reduction` itself as the reduction `{state, out}`. */
  out: readonly Output[] = NO_OUTPUT
  /**
   * Where the acceptance window opened or closed among the outputs (`window$`, R82): before
   * `out[at]`, or after the last output when `at === out.length`. Not an output itself, so the
   * reducer's outputs stay what they were; made only by the few reductions that move the window.
   */
  windowMoves: WindowMove[] | undefined = undefined
  private copied = false

  constructor(state: DeliveryState) {
    this.state = state
  }

  /** The first write of a reduction copies the state; later ones write into the copy. */
  set(patch: Partial<DeliveryState>): void {
    const open = patch.window
    if (open !== undefined && open !== this.state.window) {
      this.windowMoves ??= []
      this.windowMoves.push({ at: this.out.length, open })
    }
    Object.assign(this.writable(), patch)
  }

  /** `set({activity})`, the most frequent write, without a patch object (see records.ts). */
  setActivity(activity: DeliveryState['activity']): void {
    this.writable().activity = activity
  }

  /** `set({queue, waking})` without a patch object: once per accepted send (see records.ts). */
  setQueue(queue: DeliveryState['queue'], waking: number): void {
    const state = this.writable()
    state.queue = queue
    state.waking = waking
  }

  private writable(): Writable<DeliveryState> {
    if (!this.copied) {
      this.state = copyState(this.state)
      this.copied = true
    }
    return this.state as Writable<DeliveryState>
  }

  /**
   * Live events list `agentId` in their literal: a property added after creation costs each
   * event a property store of its own and a map transition
   * (docs/performance.md#records-copied-field-by-field).
   */
  live(event: AgentEvent): void {
    this.add({ kind: 'live', event })
  }

  /** Every durable event folds into the usage as it is written, as a reopened log folds (R73, R80). */
  durable(draft: DurableDraft): void {
    const usage = foldUsage(this.state.usage, draft)
    if (usage !== this.state.usage) this.writable().usage = usage
    this.add({ kind: 'durable', draft })
  }

  effect(effect: Effect): void {
    this.add({ kind: 'effect', effect })
  }

  /** A message's fate that no event shows (R42); journaled too while journaling (R50). */
  settle(id: AgentMessageId, outcome: Outcome): void {
    this.add({ kind: 'settle', id, outcome })
    this.journal({ op: 'settle', id, outcome })
  }

  /** A record for the store's inbox journal, while the store keeps one (R50). */
  journal(record: InboxRecord): void {
    if (this.state.journaling) this.add({ kind: 'journal', record })
  }

  /**
   * Most reductions have one to three outputs: exact-size literals for those. `[]` and a push
   * allocate room for 17 (~180 bytes), on each of the dozen reductions of a turn
   * (docs/performance.md#exact-size-output-arrays).
   */
  private add(o: Output): void {
    const out = this.out
    if (out.length === 0) this.out = [o]
    else if (out.length === 1) this.out = [out[0] as Output, o]
    else if (out.length === 2) this.out = [out[0] as Output, out[1] as Output, o]
    else (out as Output[]).push(o)
  }
}
