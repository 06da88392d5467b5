import {
  catchError,
  concat,
  defer,
  EMPTY,
  endWith,
  ignoreElements,
  type Observable,
  of,
  type SchedulerLike,
} from 'rxjs'
import type { AgentMessage } from '../contracts/messages.js'
import type { ModelAdapter } from '../contracts/model.js'
import type { SessionStore } from '../contracts/store.js'
import type { Effect } from '../machine/effects.js'
import type { Admission, Signal } from '../machine/inputs.js'
import { startFlush } from '../session/flush.js'
import type { Transcript } from '../session/transcript.js'
import type { ToolCatalog } from '../tools/toolCatalog.js'
import type { Activities } from './activities.js'
import type { ActivityTimers } from './activityTimers.js'
import type { ApprovalGate } from './approvalGate.js'
import { callHook, hookList } from './callHook.js'
import { callModel } from './callModel.js'
import { closeStore } from './closeStore.js'
import { decideAdmission } from './decideAdmission.js'
import type { Hooks } from './hookSet.js'
import type { EffectAnswer } from './mergeEffects.js'
import { summarizeHistory } from './summarizeHistory.js'
import type { Summarizers } from './summarizers.js'
import type { CallParts, ToolBatchRunner } from './toolBatch.js'

export type EffectRunnerDeps<A> = {
  readonly agent: A
  readonly agentId: string
  readonly model: ModelAdapter
  readonly system: string | undefined
  readonly hooks: Hooks<A>
  readonly toolbox: ToolCatalog<A>
  readonly runTools: ToolBatchRunner<A>
  readonly approvals: ApprovalGate<A>
  readonly transcript: Transcript
  readonly summarizers: Summarizers
  readonly store: SessionStore
  readonly scheduler: SchedulerLike
  /** Feeds a signal to the reducer later (a tool's context); immediate answers are returned. */
  readonly post: (signal: Signal) => void
  /** Feeds a signal to the reducer `hops` actions later on the agent's scheduler (see `later`). */
  readonly schedule: (hops: number, signal: Signal) => void
  /** Timers kept by the driver, not the engine: a pending one does not hold the engine (R66). */
  readonly timers: ActivityTimers
  /** The steers applied while one call runs (R70): see `steersDuring`. */
  readonly steersDuring: (at: {
    readonly turn: number
    readonly step: number
    readonly index: number
  }) => Observable<AgentMessage>
  /** Completes the pipeline's inputs: `events$` and `transcript$` complete after the drain. */
  readonly complete: () => void
}

/** What every effect's runner may use: the deps and the activities of this engine. */
export type EffectContext<A> = EffectRunnerDeps<A> & { readonly activities: Activities }
type Context<A> = EffectContext<A>

type EffectOf<K extends Effect['kind']> = Extract<Effect, { readonly kind: K }>
type Runners = {
  // biome-ignore lint/suspicious/noExplicitAny: the agent type does not matter to the runners
  readonly [K in Effect['kind']]: (effect: EffectOf<K>, ctx: Context<any>) => EffectAnswer
}

const NO_CONTEXTS: Admission = Object.freeze({ additionalContexts: Object.freeze([]) })

/** The part of a turn that is its running step's model request (R68). */
const MODEL = 'model'
/** The cause a cut request's signal aborts with (R68); adapters treat any abort as the end. */
const INTERRUPTED = Object.freeze({ kind: 'interrupted' })
const CANCELLED = Object.freeze({ kind: 'tool-call-cancelled' })
const callPart = (step: number, index: number): string => `call/${step}/${index}`

/** One call's own signal and stop, as parts of the turn's activity (R71). */
const callParts = (activities: Activities, activity: number, step: number): CallParts => ({
  signal: (index) => activities.lazySignal(activity, callPart(step, index))(),
  cancelled: (index) => activities.partAborted(activity, callPart(step, index)),
  until: (index, run) => activities.untilStopped(activity, run, callPart(step, index)),
})

/**
 * Hands over what the store missed (R40) and starts making everything appended so far durable;
 * `undefined` when there is nothing to wait for.
 */
const flushStarted = <A>(ctx: Context<A>): Observable<never> | undefined =>
  startFlush(ctx.transcript, ctx.store)?.pipe(ignoreElements())

/** Runs hooks one after the other, for their completion only. */
const runHooks = <Args>(hooks: readonly ((args: Args) => unknown)[], args: Args): Observable<never> =>
  concat(...hooks.map((hook) => callHook(() => hook(args)).pipe(ignoreElements())))

/** One small function per effect kind: what it does, and the signals it answers with. */
const runners: Runners = {
  post: (effect) => effect.input,
  schedule: (effect, ctx) => {
    ctx.schedule(effect.late ? 2 : 1, effect.input)
    return undefined
  },
  abort: (effect, ctx) => {
    ctx.activities.abort(effect.activity, effect.cause)
    return undefined
  },
  // R68: the request stops first, so whatever its adapter does on the abort reaches nobody.
  cut: ({ activity }, ctx) => {
    ctx.activities.abortPart(activity, MODEL, INTERRUPTED)
    ctx.activities.forgetPart(activity, MODEL)
    return undefined
  },
  'cancel-call': ({ activity, step, index, reason }, ctx) => {
    const cause = reason === undefined ? CANCELLED : { kind: 'tool-call-cancelled', reason }
    ctx.activities.abortPart(activity, callPart(step, index), cause)
    return undefined
  },
  stop: (effect, ctx) => {
    ctx.activities.stop(effect.activity)
    ctx.timers.clear(effect.activity)
    return undefined
  },
  'prompt-submit': ({ activity, content, source }, ctx) => {
    const hooks = hookList(ctx.hooks.promptSubmit)
    if (hooks.length === 0) return { type: 'admission/allowed', activity, admission: NO_CONTEXTS }
    const signal = ctx.activities.signalOf(activity)
    const decided = decideAdmission(hooks, activity, { agent: ctx.agent, content, source, signal })
    return ctx.activities.untilStopped(activity, decided)
  },
  'step-hook': ({ activity, turn, step }, ctx) => {
    const hooks = hookList(ctx.hooks.step)
    if (hooks.length === 0) return { type: 'step-hook/done', activity, step }
    const args = { agent: ctx.agent, turn, step, signal: ctx.activities.signalOf(activity) }
    const ran = runHooks(hooks, args).pipe(
      endWith<Signal>({ type: 'step-hook/done', activity, step }),
      catchError((error: unknown) => of<Signal>({ type: 'hook/failed', activity, step, error })),
    )
    return ctx.activities.untilStopped(activity, ran)
  },
  // Fields named, not spread: see docs/performance.md ("Records copied field by field").
  model: (effect, ctx) =>
    callModel(ctx, {
      activity: effect.activity,
      turn: effect.turn,
      step: effect.step,
      tools: effect.tools ?? 0,
      signal: ctx.activities.lazySignal(effect.activity, MODEL),
      part: MODEL,
    }),
  tools: (effect, ctx) => {
    const { activity, step } = effect
    const signal = ctx.activities.signalOf(activity)
    const parts = callParts(ctx.activities, activity, step)
    const steers = (index: number) => ctx.steersDuring({ turn: effect.turn, step, index })
    const list = ctx.toolbox.list(effect.tools ?? 0)
    const batch = { ...effect, agent: ctx.agent, signal, parts, steers, list }
    // Without `only`, the step's calls are new: the tools that ask for approval answer first (R61).
    const ran = defer(
      () => (effect.only === undefined && ctx.approvals.check(batch)) || ctx.runTools(batch),
    ).pipe(catchError((error: unknown) => of<Signal>({ type: 'tools/failed', activity, step, error })))
    return ctx.activities.untilStopped(activity, ran)
  },
  'approval-timer': ({ activity, step, index, call }, ctx) => {
    const ms = ctx.approvals.timeoutOf(call.name)
    if (ms !== undefined)
      ctx.timers.set(activity, ms, () => ctx.post({ type: 'approval/timeout', activity, step, index }))
    return undefined
  },
  timer: ({ activity, ms, input }, ctx) => {
    ctx.timers.set(activity, ms, () => ctx.post(input))
    return undefined
  },
  'turn-stopping': ({ activity, turn, step }, ctx) => {
    const hooks = hookList(ctx.hooks.turnStopping)
    if (hooks.length === 0) return { type: 'turn-stopping/done', activity }
    const args = { agent: ctx.agent, turn, signal: ctx.activities.signalOf(activity) }
    const ran = runHooks(hooks, args).pipe(
      endWith<Signal>({ type: 'turn-stopping/done', activity }),
      catchError((error: unknown) => of<Signal>({ type: 'hook/failed', activity, step, error })),
    )
    return ctx.activities.untilStopped(activity, ran)
  },
  'request-error': ({ activity, turn, step, error }, ctx) => {
    const hooks = hookList(ctx.hooks.requestError)
    if (hooks.length === 0) return { type: 'request-error/done', activity }
    const args = { agent: ctx.agent, turn, step, error, signal: ctx.activities.signalOf(activity) }
    // A failing requestError hook cannot make the turn fail twice: the request error stands.
    const ran = runHooks(hooks, args).pipe(
      catchError(() => EMPTY),
      endWith<Signal>({ type: 'request-error/done', activity }),
    )
    return ctx.activities.untilStopped(activity, ran)
  },
  persist: (_effect, ctx) => {
    try {
      const pending = flushStarted(ctx)
      if (pending === undefined) return undefined
      return pending.pipe(catchError((error: unknown) => of<Signal>({ type: 'store/failed', error })))
    } catch (error) {
      return { type: 'store/failed', error }
    }
  },
  checkpoint: ({ activity }, ctx) => {
    // The turn has ended: a turn that was not aborted gets no 'stop', so it stops here, and the
    // approval timers of decided calls go: they must not hold the process.
    ctx.activities.stop(activity)
    ctx.timers.clear(activity)
    try {
      const pending = flushStarted(ctx)
      if (pending === undefined) return { type: 'checkpoint/done', activity }
      return pending.pipe(
        endWith<Signal>({ type: 'checkpoint/done', activity }),
        catchError((error: unknown) => of<Signal>({ type: 'checkpoint/failed', activity, error })),
      )
    } catch (error) {
      return { type: 'checkpoint/failed', activity, error }
    }
  },
  // R74, R75: stopped (and its signal aborted) by cancel() and dispose(); its answer is then dropped.
  summarize: ({ activity, ref, keepLastTurns, turn }, ctx) => {
    const signal = ctx.activities.signalOf(activity)
    const call = { activity, ref, keepLastTurns, turn, signal }
    return ctx.activities.untilStopped(activity, summarizeHistory(ctx, call))
  },
  'close-store': (_effect, ctx) => closeStore(ctx.transcript, ctx.store),
  complete: (_effect, ctx) => {
    ctx.complete()
    return undefined
  },
}

/**
 * Turns effects into their answers: signals known at once, or an Observable of them. Every
 * effect of an activity runs with that activity's `AbortSignal` and stops (unsubscribes) at its
 * `stop` effect, which the reducer emits only after the abort listeners ran (R25).
 */
export const createEffectRunner =
  <A>(ctx: EffectContext<A>): ((effect: Effect) => EffectAnswer) =>
  (effect) =>
    (runners[effect.kind] as (effect: Effect, ctx: Context<A>) => EffectAnswer)(effect, ctx)
