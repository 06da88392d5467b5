import { Observable, type SchedulerLike, Subject, Subscription, scan } from 'rxjs'
import type { AgentEvent, SessionEvent } from '../contracts/events.js'
import type { InboxSnapshot } from '../contracts/inbox.js'
import type { AgentMessageId } from '../contracts/messages.js'
import type { ModelAdapter, ToolSpec } from '../contracts/model.js'
import type { SessionStore } from '../contracts/store.js'
import type { ToolDefinition } from '../contracts/tools.js'
import { isCloseStore } from '../machine/dispose.js'
import type { Effect } from '../machine/effects.js'
import type { Command, Input, Signal } from '../machine/inputs.js'
import type { Output } from '../machine/outputs.js'
import { type Reduced, reduce } from '../machine/reduce.js'
import { selectHolds, selectQuiescent } from '../machine/selectors.js'
import type { DeliveryState } from '../machine/state.js'
import type { AcceptedSend } from '../messages/acceptSend.js'
import type { Transcript } from '../session/transcript.js'
import { Activities } from './activities.js'
import { createEffectRunner } from './effectRunner.js'
import type { HookSet } from './hookSet.js'
import { InboxSnapshots } from './inboxSnapshots.js'
import { type Inlet, inlet } from './inlet.js'
import { later, mergeEffects } from './mergeEffects.js'
import { mergeInputs } from './mergeInputs.js'
import { Outcomes } from './outcomes.js'
import { type Published, publishOutputs } from './publishOutputs.js'
import { createToolBatchRunner } from './runToolBatch.js'
import { splitSends } from './splitSends.js'
import { trampoline } from './trampoline.js'

/** What an agent's engine runs with, fixed when the agent is created. */
export type DriverConfig<A> = {
  readonly agentId: string
  readonly model: ModelAdapter
  readonly system: string | undefined
  readonly hooks: HookSet<A>
  readonly tools: readonly ToolDefinition<A>[]
  readonly toolSpecs: readonly ToolSpec[]
  readonly maxParallel: number
  readonly scheduler: SchedulerLike
  readonly transcript: Transcript
  readonly store: SessionStore
  /**
   * Release the engine when quiescent (always, but in the test that compares an agent that
   * releases with one that never does).
   */
  readonly release: boolean
}

/** Sends accepted but not reduced yet (they wait in the trampoline, inside a delivery). */
export type PendingSends = { queued: number; waking: number }

/** The live pipeline: what exists only while the agent has something to do. */
type Engine = {
  readonly sends: Inlet<AcceptedSend>
  readonly commands: Inlet<Command>
  readonly signals: Inlet<Signal>
  readonly effects: Inlet<Effect>
  readonly subscription: Subscription
}

const NO_OUTPUTS: readonly Output[] = Object.freeze([])

/**
 * Owns an agent's engine: inlets → trampoline → `scan(reduce)` → publishing, the effects fed back
 * as signals, the latest state and the sends still in the trampoline (the `Actor` of XState, the
 * `State` of NgRx; the façade only forwards to it).
 *
 * The engine is built on the first input that needs it and released once the agent is quiescent
 * with nothing in flight (no input waiting, no effect answer pending, no scheduled move): an idle
 * agent holds its state, its transcript and this object, not a live pipeline of subscribers and
 * closures (docs/performance.md#what-an-idle-agent-holds). What subscribers see is the same
 * either way: `events$` and `durable$` are served by one Subject that outlives the engine, and the
 * engine is rebuilt from the latest state, so a rebuilt engine reduces exactly as the old one would.
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
  /** How the pipeline ended, once it has: inputs are dropped from then on. */
  #end: { readonly error?: unknown; readonly failed: boolean } | undefined
  #waiters: (() => void)[] | undefined
  #completed: { readonly promise: Promise<void>; resolve(): void } | undefined
  #subject: Subject<Published> | undefined
  #inbox: InboxSnapshots | undefined
  #events$: Observable<AgentEvent> | undefined
  #durable$: Observable<SessionEvent> | undefined

  constructor(
    readonly agent: A,
    readonly config: DriverConfig<A>,
    state: DeliveryState,
  ) {
    this.#state = state
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
    if (target === 'next-turn' || wakeup) {
      this.pending.queued++
      if (wakeup) this.pending.waking++
    }
    const engine = this.#live()
    if (engine === undefined) return
    this.#depth++
    try {
      engine.sends.next(send)
    } finally {
      if (--this.#depth === 0) this.#settle()
    }
  }

  /** A call from the public surface other than a send (cancel, retry, dispose, inbox control). */
  command(command: Command): void {
    const engine = this.#live()
    if (engine === undefined) return
    this.#depth++
    try {
      engine.commands.next(command)
    } finally {
      if (--this.#depth === 0) this.#settle()
    }
  }

  /** A turn-boundary signal: an effect's outcome, a tool's context, a store failure. */
  post(signal: Signal): void {
    const engine = this.#live()
    if (engine === undefined) return
    this.#depth++
    try {
      engine.signals.next(signal)
    } finally {
      if (--this.#depth === 0) this.#settle()
    }
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
    if (this.#end !== undefined && !this.#end.failed) return Promise.resolve()
    if (this.#completed === undefined) {
      let resolve: () => void = () => {}
      const promise = new Promise<void>((r) => {
        resolve = r
      })
      this.#completed = { promise, resolve }
    }
    return this.#completed.promise
  }

  get events$(): Observable<AgentEvent> {
    this.#events$ ??= this.#outputs('live') as Observable<AgentEvent>
    return this.#events$
  }

  get durable$(): Observable<SessionEvent> {
    this.#durable$ ??= this.#outputs('event') as Observable<SessionEvent>
    return this.#durable$
  }

  get inboxes(): InboxSnapshots {
    this.#inbox ??= new InboxSnapshots(this)
    return this.#inbox
  }

  inbox(): InboxSnapshot {
    return this.inboxes.current()
  }

  #isIdle(): boolean {
    return (
      this.#end !== undefined ||
      (this.#inputsEntered === this.#inputsDelivered && selectQuiescent(this.#state))
    )
  }

  #live(): Engine | undefined {
    return this.#engine ?? (this.#end === undefined ? this.#build() : undefined)
  }

  /** At the end of the outermost call: release the engine if nothing is left for it to do. */
  #settle(): void {
    const engine = this.#engine
    if (engine === undefined || this.#finished || this.#inFlight > 0 || !this.config.release) return
    if (this.#inputsEntered !== this.#inputsDelivered || !selectQuiescent(this.#state)) return
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
    return reduce(acc.state, input)
  }

  #onDelivered(): void {
    this.#inputsDelivered++
    const waiters = this.#waiters
    if (waiters !== undefined && waiters.length > 0 && this.#isIdle()) {
      this.#waiters = undefined
      for (const resolve of waiters) resolve()
    }
    this.#inbox?.delivered()
  }

  #outputs(kind: Published['kind']): Observable<unknown> {
    return new Observable<unknown>((subscriber) =>
      this.#published().subscribe({
        next: (o) => {
          if (o.kind === kind) subscriber.next(o.event)
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      }),
    )
  }

  /** The Subject behind `events$` and `durable$`, made on the first subscription. */
  #published(): Subject<Published> {
    if (this.#subject === undefined) {
      this.#subject = new Subject<Published>()
      const end = this.#end
      if (end?.failed) this.#subject.error(end.error)
      else if (end) this.#subject.complete()
    }
    return this.#subject
  }

  #build(): Engine {
    const config = this.config
    const entered = () => {
      this.#inputsEntered++
    }
    const post = (signal: Signal) => this.post(signal)
    const engine: Engine = {
      sends: inlet<AcceptedSend>(entered),
      commands: inlet<Command>(entered),
      signals: inlet<Signal>(entered),
      effects: inlet<Effect>(),
      subscription: new Subscription(),
    }
    this.#engine = engine
    this.#builds++
    // Fields listed, no spread: docs/performance.md#records-copied-field-by-field.
    const run = createEffectRunner({
      agent: this.agent,
      agentId: config.agentId,
      model: config.model,
      system: config.system,
      hooks: config.hooks,
      toolSpecs: config.toolSpecs,
      runTools: createToolBatchRunner({ tools: config.tools, maxParallel: config.maxParallel, post }),
      transcript: config.transcript,
      store: config.store,
      scheduler: config.scheduler,
      post,
      schedule: (hops, signal) => this.#schedule(hops, signal),
      complete: () => {
        this.#finished = true
        engine.sends.complete()
        engine.commands.complete()
        engine.signals.complete()
      },
      activities: new Activities(),
    })
    engine.subscription.add(engine.effects.observable.pipe(mergeEffects(run, this)).subscribe(post))
    const reductions$ = mergeInputs<Input>(
      engine.sends.observable.pipe(splitSends()),
      engine.commands.observable,
      engine.signals.observable,
    ).pipe(
      trampoline(isCloseStore),
      scan((acc: Reduced, input: Input) => this.#reduce(acc, input), { state: this.#state, out: NO_OUTPUTS }),
      publishOutputs({
        reduced: (r) => {
          this.#state = r.state
        },
        transcript: config.transcript,
        outcomes: this.outcomes,
        effect: (effect) => engine.effects.next(effect),
        delivered: () => this.#onDelivered(),
        ended: () => this.#ended(engine),
      }),
    )
    engine.subscription.add(
      reductions$.subscribe({
        next: (o) => {
          const subject = this.#subject
          if (subject?.observed === true) subject.next(o)
        },
        // A defect (the reducer threw) errors the streams; it is rethrown when nobody observes
        // them, so RxJS reports it instead of losing it.
        error: (error: unknown) => {
          this.#end = { error, failed: true }
          const subject = this.#subject
          subject?.error(error)
          if (subject?.observed !== true) throw error
        },
        complete: () => {
          this.#end = { failed: false }
          this.#subject?.complete()
          this.#completed?.resolve()
        },
      }),
    )
    return engine
  }

  /** The pipeline ended (completed or errored): whatever waits for it is told; inputs are dropped. */
  #ended(engine: Engine): void {
    this.#end ??= { failed: false }
    this.#engine = undefined
    engine.effects.complete()
    const waiters = this.#waiters ?? []
    this.#waiters = undefined
    for (const resolve of waiters) resolve()
    this.#inbox?.complete()
  }
}
