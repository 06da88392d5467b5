import { type SchedulerLike, Subscription, scan } from 'rxjs'
import type { AgentMessageId } from '../contracts/messages.js'
import type { ModelAdapter } from '../contracts/model.js'
import type { SessionStore } from '../contracts/store.js'
import { isCloseStore } from '../machine/dispose.js'
import type { Effect } from '../machine/effects.js'
import type { Command, Input, Signal } from '../machine/inputs.js'
import type { Output } from '../machine/outputs.js'
import { type Reduced, reduce } from '../machine/reduce.js'
import type { DeliveryState } from '../machine/state.js'
import type { AcceptedSend } from '../messages/acceptSend.js'
import type { Transcript } from '../session/transcript.js'
import type { ToolCatalog } from '../tools/toolCatalog.js'
import { Activities } from './activities.js'
import type { ActivityTimers } from './activityTimers.js'
import { createApprovalGate } from './approvalGate.js'
import type { Broadcast } from './broadcast.js'
import { createEffectRunner } from './effectRunner.js'
import { errorReporter, type OnError } from './errorReporter.js'
import type { HookSet } from './hookSet.js'
import { type Inlet, inlet } from './inlet.js'
import { Mailbox } from './mailbox.js'
import { type AnswerWatch, mergeEffects } from './mergeEffects.js'
import { mergeInputs } from './mergeInputs.js'
import type { Outcomes } from './outcomes.js'
import { publishOutputs } from './publishOutputs.js'
import { createToolBatchRunner } from './runToolBatch.js'
import { splitSends } from './splitSends.js'
import { steersDuring } from './steersDuring.js'
import type { Summarizers } from './summarizers.js'
import { trampoline } from './trampoline.js'

/** What an agent's engine runs with, fixed when the agent is created. */
export type EngineConfig<A> = {
  readonly agentId: string
  readonly model: ModelAdapter
  readonly system: string | undefined
  readonly hooks: HookSet<A>
  /** Where the agent's tools come from, one list per version (R100). */
  readonly toolbox: ToolCatalog<A>
  readonly maxParallel: number
  /** The agent's `maxBlockBytes` (R86): the most bytes of one image or file block. */
  readonly maxBlockBytes: number
  /** The agent's `approvalTimeoutMs` (R66); a tool's own wins. */
  readonly approvalTimeoutMs: number | undefined
  readonly scheduler: SchedulerLike
  readonly transcript: Transcript
  /** The summarisers `compact()` calls brought, and the agent's own (R74). */
  readonly summarizers: Summarizers
  readonly store: SessionStore
  /** What hooks and tools are given as `agent` (the agent's public face; never called here). */
  readonly agent: A
  /** The reducer; `machine/reduce.ts` but in a test that records what it produced. */
  readonly reduce?: (state: DeliveryState, input: Input) => Reduced
  /** The agent's `onError` (R118): left out, failed turns are reported on `console.error`. */
  readonly onError?: OnError
  /**
   * Release the engine when quiescent (always, but in the test that compares an agent that
   * releases with one that never does).
   */
  readonly release: boolean
}

/** The live pipeline: what exists only while the agent has something to do. */
export type Engine = {
  readonly sends: Inlet<AcceptedSend>
  /** Commands and signals: they enter beside the split sends. */
  readonly inputs: Inlet<Command | Signal>
  readonly effects: Inlet<Effect>
  /** What waits in the trampoline (`machine/check.ts` reads it). */
  readonly mailbox: Mailbox<Input>
  readonly subscription: Subscription
}

/**
 * What an engine is built with besides its config: the driver's state and what outlives an
 * engine (outcomes, broadcast, timers), and the driver's callbacks. None of them runs inside the
 * `scan`, which is `reduce` alone.
 */
export type EngineHost = AnswerWatch & {
  /** The state the engine starts from: the latest one. */
  readonly state: DeliveryState
  readonly outcomes: Outcomes
  readonly broadcast: Broadcast
  /** The driver's timers, which outlive this engine (approval limits, R66). */
  readonly timers: ActivityTimers
  /** An input entered the pipeline (counted for `whenIdle`, R28). */
  entered(): void
  /** Each reduction's state, before its outputs go out. */
  adopt(state: DeliveryState): void
  /** The acceptance window moved, at its place among a reduction's outputs (R82). */
  window(open: boolean): void
  /** All outputs of a reduction were delivered. */
  delivered(): void
  post(signal: Signal): void
  schedule(hops: number, signal: Signal): void
  /** The `complete` effect ran: the inputs are closed now. */
  finished(): void
  /** The pipeline ended (completed or errored). */
  ended(): void
  /** Whether steering `id` is staged in the latest state (R70). */
  staged(id: AgentMessageId): boolean
}

const NO_OUTPUTS: readonly Output[] = Object.freeze([])

/**
 * Builds the pipeline of docs/architecture.md from the latest state: sends, split by target and
 * wakeup, merged with commands and turn-boundary signals → trampoline → `scan(reduce)` →
 * publishing; effects → `mergeEffects(runner)` → signals. Each build costs a few dozen objects
 * (docs/performance.md#a-cheap-engine); `subscription` tears it all down.
 */
export const buildEngine = <A>(config: EngineConfig<A>, parts: EngineHost): Engine => {
  const entered = () => parts.entered()
  const post = (signal: Signal) => parts.post(signal)
  const engine: Engine = {
    sends: inlet<AcceptedSend>(entered),
    inputs: inlet<Command | Signal>(entered),
    effects: inlet<Effect>(),
    mailbox: new Mailbox<Input>(),
    subscription: new Subscription(),
  }
  const reducer = config.reduce ?? reduce
  // Fields listed, no spread: docs/performance.md#records-copied-field-by-field.
  const run = createEffectRunner({
    agent: config.agent,
    agentId: config.agentId,
    model: config.model,
    system: config.system,
    hooks: config.hooks,
    toolbox: config.toolbox,
    runTools: createToolBatchRunner({
      maxParallel: config.maxParallel,
      maxBlockBytes: config.maxBlockBytes,
      post,
    }),
    approvals: createApprovalGate(config.toolbox, config.approvalTimeoutMs, config.scheduler),
    transcript: config.transcript,
    summarizers: config.summarizers,
    store: config.store,
    scheduler: config.scheduler,
    post,
    schedule: (hops, signal) => parts.schedule(hops, signal),
    timers: parts.timers,
    steersDuring: (at) => steersDuring(parts.broadcast.events$, (id) => parts.staged(id), at),
    complete: () => {
      parts.finished()
      engine.sends.complete()
      engine.inputs.complete()
    },
    activities: new Activities(),
  })
  engine.subscription.add(engine.effects.observable.pipe(mergeEffects(run, parts)).subscribe(post))
  const broadcast = parts.broadcast
  engine.subscription.add(
    mergeInputs<Input>(engine.sends.observable.pipe(splitSends()), engine.inputs.observable)
      .pipe(
        trampoline(isCloseStore, engine.mailbox),
        scan((acc: Reduced, input: Input) => reducer(acc.state, input), {
          state: parts.state,
          out: NO_OUTPUTS,
        }),
        publishOutputs({
          reduced: (r) => parts.adopt(r.state),
          transcript: config.transcript,
          outcomes: parts.outcomes,
          effect: (effect) => engine.effects.next(effect),
          window: (open) => parts.window(open),
          delivered: () => parts.delivered(),
          report: errorReporter(config.onError),
          ended: () => {
            engine.effects.complete()
            parts.ended()
          },
        }),
      )
      .subscribe({
        next: (output) => broadcast.publish(output),
        error: (error: unknown) => broadcast.fail(error),
        complete: () => broadcast.complete(),
      }),
  )
  return engine
}
