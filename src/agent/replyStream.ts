import { Observable, type Subscriber } from 'rxjs'
import { InvalidInputError, MessageNotDeliveredError } from '../contracts/errors.js'
import type { SessionEvent } from '../contracts/events.js'
import type { AgentMessageId } from '../contracts/messages.js'
import { selectHolds } from '../machine/selectors.js'
import type { Driver } from '../runtime/driver.js'
import { carriedId } from '../session/deliveredOutcome.js'

const CALL = 'reply$()'

/**
 * `agent.reply$(id)` (R82): the durable events of the turn message `id` entered, from its
 * `turn/start` (a prompt) or its own event (steering, or context staged into a turn) to that
 * turn's `turn/end`; then it completes. Context appended while no turn runs has no turn: its one
 * `user/message`, then complete. Replays what the log already holds, then follows live events.
 *
 * Errors with `MessageNotDeliveredError` (its `outcome`) when the message was discarded, blocked
 * or refused, and with `InvalidInputError` for an id the agent never issued (as `outcome(id)`
 * rejects). An id sent from inside a delivery still waits in the trampoline: it is judged once
 * what waits there has been reduced. Completes when the agent ends first (a paused turn disposed
 * writes no `turn/end`, R64).
 */
export const replyStream = <A>(
  driver: Driver<A>,
  transcript: HasEvents,
  id: unknown,
): Observable<SessionEvent> =>
  new Observable<SessionEvent>((subscriber) => {
    if (typeof id !== 'string') return subscriber.error(unknownId('expected an id that send() returned'))
    const reply = new Reply(driver, transcript, id as AgentMessageId, subscriber)
    // What the log holds first: an agent that has ended replays it, then completes.
    reply.open()
    if (subscriber.closed) return
    subscriber.add(driver.durable$.subscribe({ next: (e) => reply.live(e), complete: () => reply.end() }))
    // After each reduction (the first emission is now: already judged by `open`).
    subscriber.add(driver.snapshots$.subscribe({ next: () => reply.judge(), complete: () => reply.end() }))
  })

type HasEvents = { readonly events: readonly SessionEvent[] }

/** Where a reply starts in the log, and the turn whose `turn/end` ends it (none: one event). */
type Start = { readonly index: number; readonly turn: number | undefined }

class Reply<A> {
  /** The turn followed, once the reply started (`null`: context outside a turn, already done). */
  #turn: number | null | undefined
  /** The `seq` of the last event emitted: live events at or before it were replayed. */
  #seq = 0
  #replaying = false
  /** Subscribed inside a delivery, to an id not waiting in the state: judged after it. */
  #deferred = false

  constructor(
    private readonly driver: Driver<A>,
    private readonly transcript: HasEvents,
    private readonly id: AgentMessageId,
    private readonly subscriber: Subscriber<SessionEvent>,
  ) {}

  /** On subscribe: replay from the log, or wait for the message, or say why there is none. */
  open(): void {
    // A message that still waits, or the prompt being admitted, is not in the log yet: its reply
    // starts live, and the log need not be searched (a loop asking for each prompt's reply stays
    // linear in the turns). Inside a delivery the id may still wait in the trampoline: the log is
    // searched, if need be, once what waits there has been reduced.
    this.#deferred = false
    if (selectHolds(this.driver.getSnapshot(), this.id)) return
    if (this.driver.delivering) {
      this.#deferred = true
      return
    }
    this.search()
  }

  /** The message is in the log (replayed from its start), or judged by its fate. */
  private search(): void {
    const events = this.transcript.events
    const at = lastCarrying(events, this.id)
    if (at !== undefined) return this.replay(startAt(events, at, this.id))
    this.judge()
  }

  /** A durable event, live. */
  live(event: SessionEvent): void {
    if (this.#replaying || this.subscriber.closed || event.seq <= this.#seq) return
    if (this.#turn === undefined) {
      const events = this.transcript.events
      const start = startsReply(event, this.id) ? startAt(events, event.seq - 1, this.id) : undefined
      if (start === undefined) return
      this.#turn = start.turn ?? null
    }
    this.emit(event)
  }

  /** After a delivery: a message that settled without entering a turn, or an unknown id, errors. */
  judge(): void {
    if (this.#turn !== undefined || this.subscriber.closed) return
    if (this.#deferred) {
      if (!this.driver.delivering) this.open()
      return
    }
    const { outcomes } = this.driver
    const settled = outcomes.settledAs(this.id)
    if (settled !== undefined && settled.kind !== 'delivered')
      return this.subscriber.error(new MessageNotDeliveredError(CALL, this.id, settled))
    if (settled !== undefined) return this.subscriber.complete()
    if (!this.driver.delivering && !outcomes.knows(this.id))
      this.subscriber.error(
        unknownId(
          'unknown id: this agent never returned it, and neither its transcript nor its journal holds it',
        ),
      )
  }

  /** The agent ended: what the log holds of a reply not searched yet is replayed first. */
  end(): void {
    if (this.#deferred && this.#turn === undefined) this.search()
    this.subscriber.complete()
  }

  /** The log's events from `start`, read by index: events a subscriber's call appends meanwhile come too. */
  private replay(start: Start): void {
    this.#turn = start.turn ?? null
    this.#replaying = true
    try {
      const events = this.transcript.events
      for (let i = start.index; i < events.length && !this.subscriber.closed; i++)
        this.emit(events[i] as SessionEvent)
    } finally {
      this.#replaying = false
    }
  }

  private emit(event: SessionEvent): void {
    this.#seq = event.seq
    this.subscriber.next(event)
    const turn = this.#turn
    if (turn === null || (event.type === 'turn/end' && event.data.turn === turn)) this.subscriber.complete()
  }
}

const unknownId = (message: string) => new InvalidInputError(CALL, [{ path: ['id'], message }])

/** Whether `event` is where message `id` enters: its turn's `turn/start`, or the event carrying it. */
const startsReply = (event: SessionEvent, id: AgentMessageId): boolean =>
  (event.type === 'turn/start' && event.data.trigger.kind === 'message' && event.data.trigger.id === id) ||
  carriedId(event) === id

/**
 * Where the reply of the message at `events[index]` starts: a prompt at its turn's `turn/start`,
 * steering and context inside a turn at their own event, context outside a turn as one event.
 */
const startAt = (events: readonly SessionEvent[], index: number, id: AgentMessageId): Start => {
  const event = events[index] as SessionEvent
  if (event.type === 'turn/start' || event.type === 'steering/message')
    return { index, turn: event.data.turn }
  for (let i = index - 1; i >= 0; i--) {
    const e = events[i] as SessionEvent
    if (e.type === 'turn/end') break
    if (e.type !== 'turn/start') continue
    const { trigger } = e.data
    const prompt = trigger.kind === 'message' && trigger.id === id
    return { index: prompt ? i : index, turn: e.data.turn }
  }
  return { index, turn: undefined }
}

/** The last event that carries `id` (or opens a turn for it), searched from the end. */
const lastCarrying = (events: readonly SessionEvent[], id: AgentMessageId): number | undefined => {
  for (let i = events.length - 1; i >= 0; i--) if (startsReply(events[i] as SessionEvent, id)) return i
  return undefined
}
