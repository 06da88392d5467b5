import { InvalidInputError } from '../contracts/errors.js'
import type { AgentEvent, SessionEvent } from '../contracts/events.js'
import type { Outcome } from '../contracts/inbox.js'
import type { AgentMessageId } from '../contracts/messages.js'
import { selectHolds } from '../machine/selectors.js'
import type { DeliveryState } from '../machine/state.js'
import { carriedId, deliveredOutcome } from '../session/deliveredOutcome.js'

type Settle = (outcome: Outcome) => void
type HasEvents = { readonly events: readonly SessionEvent[] }
/** The agent's driver: its latest state says which ids wait. */
type HoldsIds = { getSnapshot(): DeliveryState }

/**
 * The fate of every message an agent returned an id for (R42). Fates the transcript shows
 * (delivered as prompt, steering or context) are read from it when asked; the others (blocked,
 * discarded, removed, expired, refused) are kept here, since no durable event shows them. So an
 * id costs nothing here while it waits or after it was delivered.
 *
 * `outcome(id)` settles once: at once for an id that already has its fate, else when the event
 * that decides it is published. A steering's fate waits for the `step/end` that names its step.
 */
export class Outcomes {
  // Made on first use: most agents never settle an id this way or wait for one, and an empty
  // Map costs about 100 bytes an idle agent would keep (docs/performance.md#what-an-idle-agent-holds).
  #settled: Map<AgentMessageId, Outcome> | undefined
  #waiters: Map<AgentMessageId, Settle[]> | undefined
  /** Waited-for steering written, whose step is not known yet (the index of its event). */
  #awaitingStep: { readonly id: AgentMessageId; readonly index: number }[] | undefined
  readonly #transcript: HasEvents
  readonly #inbox: HoldsIds

  /**
   * @param transcript Where delivered ids are read from (its `events`, the live list).
   * @param inbox Whether an id still waits in the inbox (or is the prompt being claimed or admitted).
   */
  constructor(transcript: HasEvents, inbox: HoldsIds) {
    this.#transcript = transcript
    this.#inbox = inbox
  }

  /** A fate no event shows: a blocked prompt, a withdrawn context, or one restored from a journal. */
  settle(id: AgentMessageId, outcome: Outcome): void {
    this.#settled ??= new Map()
    this.#settled.set(id, outcome)
    this.resolve(id, outcome)
  }

  /** Whether `id` waits, was delivered, or has settled (so a remote send of it is applied once). */
  knows(id: AgentMessageId): boolean {
    return (
      this.#settled?.has(id) === true ||
      selectHolds(this.#inbox.getSnapshot(), id) ||
      this.indexOf(id) !== undefined
    )
  }

  /** The fate of `id` that no event shows (blocked, discarded, refused …), once it has one. */
  settledAs(id: AgentMessageId): Outcome | undefined {
    return this.#settled?.get(id)
  }

  /** A published live event: a `discard` settles each of its messages. */
  live(event: AgentEvent): void {
    if (event.type !== 'agent/inbox/discard') return
    for (const m of event.messages) this.settle(m.id, { kind: 'discarded', reason: event.reason })
  }

  /** A durable event, once appended (its `seq` is its index + 1). */
  durable(event: SessionEvent): void {
    if (this.#waiters === undefined || this.#waiters.size === 0) return
    const id = carriedId(event)
    if (id !== undefined && this.#waiters.has(id)) this.deliver(id, event.seq - 1)
    const awaiting = this.#awaitingStep
    if ((event.type === 'step/end' || event.type === 'turn/end') && awaiting !== undefined) {
      this.#awaitingStep = undefined
      for (const { id, index } of awaiting) this.deliver(id, index)
    }
  }

  /**
   * The fate of `id`, once it has one. Rejects with `InvalidInputError` for an id that this agent
   * never returned and that neither its transcript nor its journal holds.
   */
  outcome(id: unknown): Promise<Outcome> {
    return new Promise((resolve, reject) => {
      if (typeof id !== 'string') {
        return reject(
          new InvalidInputError('outcome()', [
            { path: ['id'], message: 'expected an id that send() returned' },
          ]),
        )
      }
      const messageId = id as AgentMessageId
      const known = this.#settled?.get(messageId)
      if (known) return resolve(known)
      // A message that still waits is not in the transcript yet: its fate comes with a later
      // event, and the history need not be searched (a loop asking for each prompt's outcome
      // stays linear in the turns).
      const waits = selectHolds(this.#inbox.getSnapshot(), messageId)
      const index = waits ? undefined : this.indexOf(messageId)
      if (index === undefined && !waits) {
        const message =
          'unknown id: this agent never returned it, and neither its transcript nor its journal holds it'
        return reject(new InvalidInputError('outcome()', [{ path: ['id'], message }]))
      }
      this.#waiters ??= new Map()
      const list = this.#waiters.get(messageId) ?? []
      list.push(resolve)
      this.#waiters.set(messageId, list)
      if (index !== undefined) this.deliver(messageId, index)
    })
  }

  /** Settles the waiters of `id` from the transcript, or waits for its steering's step. */
  private deliver(id: AgentMessageId, index: number): void {
    const outcome = deliveredOutcome(this.#transcript.events, index)
    if (outcome) this.resolve(id, outcome)
    else {
      this.#awaitingStep ??= []
      this.#awaitingStep.push({ id, index })
    }
  }

  private resolve(id: AgentMessageId, outcome: Outcome): void {
    const list = this.#waiters?.get(id)
    if (!list) return
    this.#waiters?.delete(id)
    for (const settle of list) settle(outcome)
  }

  /** Where the transcript carries `id`, searched from the end (recent ids are asked about most). */
  private indexOf(id: AgentMessageId): number | undefined {
    const events = this.#transcript.events
    for (let i = events.length - 1; i >= 0; i--) if (carriedId(events[i] as SessionEvent) === id) return i
    return undefined
  }
}
