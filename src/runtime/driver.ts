import { Observable, type Subscriber } from 'rxjs'
import type { AgentEvent, SessionEvent } from '../contracts/events.js'
import { check, type Refusal, type Request } from '../machine/check.js'
import type { Effect } from '../machine/effects.js'
import type { Command, Signal } from '../machine/inputs.js'
import { selectQuiescent, selectStatus } from '../machine/selectors.js'
import type { DeliveryState } from '../machine/state.js'
import type { AcceptedSend } from '../messages/acceptSend.js'
import { ActivityTimers } from './activityTimers.js'
import { Broadcast } from './broadcast.js'
import { Deliveries } from './deliveries.js'
import { buildEngine, type Engine, type EngineConfig } from './engine.js'
import { later } from './mergeEffects.js'
import { Outcomes } from './outcomes.js'
import { Watchers } from './watchers.js'

/** What enters the driver: an accepted send, a command from the public surface, or a signal. */
export type DriverInput = AcceptedSend | Command | Signal

const isSend = (input: DriverInput): input is AcceptedSend => (input as { type?: unknown }).type === undefined

/**
 * Owns an agent's engine behind one door, as XState's `Actor` and NgRx's `Store` do: `send(input)`
 * in; `getSnapshot()`, `snapshots$`, `events$`, `durable$` and `whenIdle()` out. Every derived
 * stream and getter of the agent reads a snapshot through `machine/selectors.ts`; what a call may
 * do now is `check(request)`, asked of the latest state and of what waits in the trampoline.
 *
 * The engine is built on the first input that needs it and released once the agent is quiescent
 * with nothing in flight (no input waiting, no effect answer pending, no scheduled move): an idle
 * agent holds its state, its transcript and this object, not a live pipeline of subscribers and
 * closures (docs/performance.md#what-an-idle-agent-holds). Subscribers see no difference: the
 * `Broadcast` outlives the engine, and an engine rebuilt from the latest state reduces as the old.
 */
export class Driver<A> {
  readonly outcomes: Outcomes
  #state: DeliveryState
  #engine: Engine | undefined
  /** Calls of this driver in progress: the engine is released only when the outermost returns. */
  #depth = 0
  /** Inputs entered and delivered, and the `whenIdle()` calls waiting (R28). */
  readonly #deliveries = new Deliveries()
  /** Effect answers that wait, and scheduled moves not yet fired. */
  #inFlight = 0
  /** How many times an engine was built (a test reads it to see that releases happen). */
  #builds = 0
  /** `dispose()` closed the inputs (the `complete` effect ran). */
  #finished = false
  /** The pipeline ended (completed, or errored by a defect): inputs are dropped from then on. */
  #ended = false
  readonly #broadcast = new Broadcast()
  readonly #timers: ActivityTimers
  /** Subscribers of `snapshots$` and `window$`, made on first use. */
  #watchers: Watchers<DeliveryState> | undefined

  constructor(
    readonly config: EngineConfig<A>,
    state: DeliveryState,
  ) {
    this.#state = state
    this.#timers = new ActivityTimers(config.scheduler)
    this.outcomes = new Outcomes(config.transcript, this)
    config.transcript.reportFailuresTo(this)
    // R100: a source's new list is noted by the reducer, and seen from the next step on.
    if (config.toolbox.sourced)
      config.toolbox.connect((change) => this.send({ type: 'tools/listed', ...change }))
  }

  /**
   * The one way in: an accepted send goes through the split by target and wakeup; a command or
   * a signal enters beside it. Processed before this returns at top level; inside a delivery it
   * waits in the trampoline (and counts as done for `check`).
   */
  send(input: DriverInput): void {
    const engine = this.#live()
    if (engine === undefined) return
    this.#depth++
    try {
      if (isSend(input)) engine.sends.next(input)
      else engine.inputs.next(input)
    } finally {
      if (--this.#depth === 0) this.#settle()
    }
  }

  /** The latest state (what the last reduction left). */
  getSnapshot(): DeliveryState {
    return this.#state
  }

  /** Whether `request` may be made now (`machine/check.ts`): `undefined`, or why not. */
  check(request: Request): Refusal | undefined {
    return check(this.#state, this.#engine?.mailbox.waiting() ?? [], request)
  }

  /**
   * The latest state on subscribe, then the state after each reduction, once its outputs were
   * all delivered; completes when the pipeline ends. Costs nothing while nobody subscribes.
   */
  get snapshots$(): Observable<DeliveryState> {
    return new Observable<DeliveryState>((subscriber) => this.#watch(subscriber, 'state'))
  }

  /**
   * The acceptance window on subscribe, then each move, at its place among the outputs of the
   * reduction that made it (R82): finer than one snapshot per reduction, so that a window
   * subscriber learns it closed before anyone sees the `turn/end` it closed for.
   */
  get window$(): Observable<boolean> {
    return new Observable<boolean>((subscriber) => this.#watch(subscriber, 'window'))
  }

  get events$(): Observable<AgentEvent> {
    return this.#broadcast.events$
  }

  get durable$(): Observable<SessionEvent> {
    return this.#broadcast.durable$
  }

  /** Resolves when the state is quiescent and no input waits in the trampoline (R28). */
  whenIdle(): Promise<void> {
    return this.#deliveries.whenIdle(this.#isIdle())
  }

  /** Resolves when the pipeline has completed after `dispose()`. */
  completed(): Promise<void> {
    return this.#broadcast.completed()
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

  /** `dispose()` has closed the inputs: sends are refused from now on. */
  get finished(): boolean {
    return this.#finished
  }

  /** The pipeline has ended (after `dispose()`, or a defect): no event will follow. */
  get ended(): boolean {
    return this.#ended
  }

  /** Inputs wait in the trampoline, or a reduction's outputs are still being delivered. */
  get delivering(): boolean {
    return this.#deliveries.delivering
  }

  get engineBuilds(): number {
    return this.#builds
  }

  /** For the transcript: a store that refused an append or a flush outside a checkpoint (R40). */
  storeFailed(error: unknown): void {
    this.send({ type: 'store/failed', error })
  }

  #watch(subscriber: Subscriber<DeliveryState> | Subscriber<boolean>, kind: 'state' | 'window'): () => void {
    if (this.#ended) return Watchers.ended(subscriber, kind, this.#state)
    this.#watchers ??= new Watchers()
    return this.#watchers.add(subscriber, kind, this.#state)
  }

  #isIdle(): boolean {
    return this.#ended || (!this.#deliveries.delivering && selectQuiescent(this.#state))
  }

  #live(): Engine | undefined {
    return this.#engine ?? (this.#ended ? undefined : this.#build())
  }

  /** At the end of the outermost call: release the engine if nothing is left for it to do. */
  #settle(): void {
    const engine = this.#engine
    if (engine === undefined || this.#finished || this.#inFlight > 0 || !this.config.release) return
    if (this.#deliveries.delivering) return
    // A paused turn with nothing running waits for a person: it holds no pipeline either (R61).
    if (!selectQuiescent(this.#state) && selectStatus(this.#state) !== 'paused') return
    this.#engine = undefined
    engine.subscription.unsubscribe()
  }

  #schedule(hops: number, signal: Signal): void {
    this.#inFlight++
    later(this.config.scheduler, hops, () => {
      this.#inFlight--
      this.send(signal)
    })
  }

  #onDelivered(): void {
    this.#deliveries.delivered()
    // Snapshot subscribers before `whenIdle`: what one of them sends waits in the trampoline, so
    // the agent is not idle yet (R28).
    this.#watchers?.state(this.#state)
    this.#deliveries.settle(() => selectQuiescent(this.#state))
  }

  #build(): Engine {
    this.#builds++
    this.#engine = buildEngine<A>(this.config, {
      state: this.#state,
      outcomes: this.outcomes,
      broadcast: this.#broadcast,
      timers: this.#timers,
      entered: () => this.#deliveries.entered(),
      adopt: (state) => {
        this.#state = state
      },
      window: (open) => this.#watchers?.window(open),
      delivered: () => this.#onDelivered(),
      post: (signal) => this.send(signal),
      schedule: (hops, signal) => this.#schedule(hops, signal),
      answerStarted: () => {
        this.#inFlight++
      },
      answerEnded: () => {
        this.#inFlight--
        if (this.#depth === 0) this.#settle()
      },
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
    this.config.toolbox.close()
    this.#deliveries.end()
    this.#watchers?.end()
  }
}
