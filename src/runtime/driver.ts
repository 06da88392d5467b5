import type { Observable } from 'rxjs'
import type { AgentEvent, SessionEvent } from '../contracts/events.js'
import type { InboxSnapshot } from '../contracts/inbox.js'
import type { AgentMessageId } from '../contracts/messages.js'
import type { Effect } from '../machine/effects.js'
import type { Command, Input, Signal } from '../machine/inputs.js'
import { type Reduced, reduce } from '../machine/reduce.js'
import { selectHolds, selectQuiescent, selectStatus } from '../machine/selectors.js'
import type { DeliveryState } from '../machine/state.js'
import type { AcceptedSend } from '../messages/acceptSend.js'
import { ActivityTimers } from './activityTimers.js'
import { Broadcast } from './broadcast.js'
import { DecisionsAhead } from './decisionsAhead.js'
import { buildEngine, type Engine, type EngineConfig } from './engine.js'
import { InboxSnapshots } from './inboxSnapshots.js'
import type { Inlet } from './inlet.js'
import { later } from './mergeEffects.js'
import { Outcomes } from './outcomes.js'

/**
 * Told after each input's outputs were all delivered, and once when the pipeline ends; `window`
 * when the acceptance window moves, at its place among the outputs (R82).
 */
export type DeliveryWatcher = { delivered(): void; ended(): void; window?(open: boolean): void }

/** Sends accepted but not reduced yet (they wait in the trampoline, inside a delivery). */
export type PendingSends = { queued: number; waking: number }

/**
 * Owns an agent's engine: inlets → trampoline → `scan(reduce)` → publishing, the effects fed back
 * as signals, the latest state and the sends still in the trampoline (the `Actor` of XState, the
 * `State` of NgRx; the façade only forwards to it).
 *
 * The engine is built on the first input that needs it and released once the agent is quiescent
 * with nothing in flight (no input waiting, no effect answer pending, no scheduled move): an idle
 * agent holds its state, its transcript and this object, not a live pipeline of subscribers and
 * closures (docs/performance.md#what-an-idle-agent-holds). Subscribers see no difference: the
 * `Broadcast` outlives the engine, and an engine rebuilt from the latest state reduces as the old.
 */
export class Driver<A> {
  readonly outcomes: Outcomes
  readonly pending: PendingSends = { queued: 0, waking: 0 }
  #state: DeliveryState
  #engine: Engine | undefined
  /** Calls of this driver in progress: the engine is released only when the outermost returns. */
  #depth = 0
  /** Inputs that entered the pipeline, and those whose outputs were all delivered (R28). */
  #inputsEntered = 0
  #inputsDelivered = 0
  /** Effect answers that wait, and scheduled moves not yet fired. */
  #inFlight = 0
  /** How many times an engine was built (a test reads it to see that releases happen). */
  #builds = 0
  /** `dispose()` closed the inputs (the `complete` effect ran). */
  #finished = false
  /** The pipeline ended (completed, or errored by a defect): inputs are dropped from then on. */
  #ended = false
  #waiters: (() => void)[] | undefined
  /** What decisions wait in the trampoline (R62): `approve()` asks it before it decides. */
  readonly decisionsAhead = new DecisionsAhead()
  readonly #broadcast = new Broadcast()
  readonly #timers: ActivityTimers
  #inbox: InboxSnapshots | undefined
  #watchers: Set<DeliveryWatcher> | undefined

  constructor(
    readonly agent: A,
    readonly config: EngineConfig<A>,
    state: DeliveryState,
  ) {
    this.#state = state
    this.#timers = new ActivityTimers(config.scheduler)
    this.outcomes = new Outcomes(config.transcript, this)
    config.transcript.reportFailuresTo(this)
  }

  /** The latest state (what the last reduction left). */
  state(): DeliveryState {
    return this.#state
  }

  get engineBuilds(): number {
    return this.#builds
  }

  /** `dispose()` has closed the inputs: sends are refused from now on. */
  get finished(): boolean {
    return this.#finished
  }

  /** An accepted send enters; until it is reduced it counts as pending (ifBusy, maxQueued). */
  enter(send: AcceptedSend): void {
    const { target, wakeup } = send.options
    this.decisionsAhead.entered(send)
    if (target === 'next-turn' || wakeup) {
      this.pending.queued++
      if (wakeup) this.pending.waking++
    }
    this.#push(this.#live()?.sends, send)
  }

  /** A call from the public surface other than a send (cancel, retry, dispose, inbox control). */
  command(command: Command): void {
    this.decisionsAhead.commanded(command)
    this.#push(this.#live()?.commands, command)
  }

  /** A turn-boundary signal: an effect's outcome, a tool's context, a store failure. */
  post(signal: Signal): void {
    this.#push(this.#live()?.signals, signal)
  }

  /** Runs effects the agent owes from its creation (a restored inbox's wake, R51). */
  start(effects: readonly Effect[]): void {
    const engine = effects.length > 0 ? this.#live() : undefined
    if (engine === undefined) return
    this.#depth++
    try {
      for (const effect of effects) engine.effects.next(effect)
    } finally {
      if (--this.#depth === 0) this.#settle()
    }
  }

  storeFailed(error: unknown): void {
    this.post({ type: 'store/failed', error })
  }

  holds(id: AgentMessageId): boolean {
    return selectHolds(this.#state, id)
  }

  /** Resolves when the state is quiescent and no input waits in the trampoline (R28). */
  whenIdle(): Promise<void> {
    if (this.#isIdle()) return Promise.resolve()
    return new Promise<void>((resolve) => {
      this.#waiters ??= []
      this.#waiters.push(resolve)
    })
  }

  /** Resolves when the pipeline has completed after `dispose()`. */
  completed(): Promise<void> {
    return this.#broadcast.completed()
  }

  get events$(): Observable<AgentEvent> {
    return this.#broadcast.events$
  }

  get durable$(): Observable<SessionEvent> {
    return this.#broadcast.durable$
  }

  get inboxes(): InboxSnapshots {
    this.#inbox ??= new InboxSnapshots(this)
    return this.#inbox
  }

  /** Follows deliveries (a view that emits after each reduction, as `inbox$` does). */
  watch(watcher: DeliveryWatcher): () => void {
    this.#watchers ??= new Set()
    this.#watchers.add(watcher)
    return () => this.#watchers?.delete(watcher)
  }

  inbox(): InboxSnapshot {
    return this.inboxes.current()
  }

  /** The pipeline has ended (after `dispose()`, or a defect): no event will follow. */
  get ended(): boolean {
    return this.#ended
  }

  /** Inputs wait in the trampoline, or a reduction's outputs are still being delivered. */
  get delivering(): boolean {
    return this.#inputsEntered !== this.#inputsDelivered
  }

  /** Into the engine; when the outermost call returns, the engine may be released. */
  #push<T>(inlet: Inlet<T> | undefined, value: T): void {
    if (inlet === undefined) return
    this.#depth++
    try {
      inlet.next(value)
    } finally {
      if (--this.#depth === 0) this.#settle()
    }
  }

  #isIdle(): boolean {
    return this.#ended || (this.#inputsEntered === this.#inputsDelivered && selectQuiescent(this.#state))
  }

  #live(): Engine | undefined {
    return this.#engine ?? (this.#ended ? undefined : this.#build())
  }

  /** At the end of the outermost call: release the engine if nothing is left for it to do. */
  #settle(): void {
    const engine = this.#engine
    if (engine === undefined || this.#finished || this.#inFlight > 0 || !this.config.release) return
    if (this.#inputsEntered !== this.#inputsDelivered) return
    // A paused turn with nothing running waits for a person: it holds no pipeline either (R61).
    if (!selectQuiescent(this.#state) && selectStatus(this.#state) !== 'paused') return
    this.#engine = undefined
    engine.subscription.unsubscribe()
  }

  /** Told by `mergeEffects` (an `AnswerWatch`). */
  answerStarted(): void {
    this.#inFlight++
  }

  answerEnded(): void {
    this.#inFlight--
    if (this.#depth === 0) this.#settle()
  }

  #schedule(hops: number, signal: Signal): void {
    this.#inFlight++
    later(this.config.scheduler, hops, () => {
      this.#inFlight--
      this.post(signal)
    })
  }

  #reduce(acc: Reduced, input: Input): Reduced {
    // A send leaves the trampoline: it no longer counts as pending for ifBusy and maxQueued.
    if (input.type === 'queue') {
      this.pending.queued--
      if (input.wakeup) this.pending.waking--
    }
    this.decisionsAhead.reduced(input)
    return reduce(acc.state, input)
  }

  #onDelivered(): void {
    this.#inputsDelivered++
    if (this.#waiters !== undefined && this.#isIdle()) this.#resolveWaiters()
    this.#inbox?.delivered()
    if (this.#watchers !== undefined) for (const w of [...this.#watchers]) w.delivered()
  }

  #onWindow(open: boolean): void {
    if (this.#watchers !== undefined) for (const w of [...this.#watchers]) w.window?.(open)
  }

  #resolveWaiters(): void {
    const waiters = this.#waiters ?? []
    this.#waiters = undefined
    for (const resolve of waiters) resolve()
  }

  #build(): Engine {
    this.#builds++
    this.#engine = buildEngine<A>({
      agent: this.agent,
      config: this.config,
      outcomes: this.outcomes,
      broadcast: this.#broadcast,
      state: this.#state,
      watch: this,
      entered: () => {
        this.#inputsEntered++
      },
      reduce: (acc, input) => this.#reduce(acc, input),
      adopt: (state) => {
        this.#state = state
      },
      window: (open) => this.#onWindow(open),
      delivered: () => this.#onDelivered(),
      post: (signal) => this.post(signal),
      schedule: (hops, signal) => this.#schedule(hops, signal),
      timers: this.#timers,
      staged: (id) => this.#state.outbox.some((e) => e.kind === 'steering' && e.message.id === id),
      finished: () => {
        this.#finished = true
      },
      ended: () => this.#onEnded(),
    })
    return this.#engine
  }

  /** The pipeline ended: whatever waits for it is told; inputs are dropped from now on. */
  #onEnded(): void {
    this.#ended = true
    this.#engine = undefined
    this.#timers.clearAll()
    this.#resolveWaiters()
    this.#inbox?.complete()
    if (this.#watchers !== undefined) for (const w of [...this.#watchers]) w.ended()
  }
}
