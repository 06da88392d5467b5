import {
  catchError,
  concat,
  defer,
  EMPTY,
  endWith,
  filter,
  ignoreElements,
  type Observable,
  of,
  type SchedulerLike,
  Subject,
  takeUntil,
} from 'rxjs'
import type { AgentHooks } from '../contracts/hooks.js'
import type { ModelAdapter, ToolSpec } from '../contracts/model.js'
import type { SessionStore } from '../contracts/store.js'
import type { Effect } from '../machine/effects.js'
import type { Admission, Signal } from '../machine/inputs.js'
import { startFlush } from '../session/flush.js'
import type { Transcript } from '../session/transcript.js'
import { callHook, hookList } from './callHook.js'
import { callModel } from './callModel.js'
import { decideAdmission } from './decideAdmission.js'
import { finalizeStore } from './finalizeStore.js'
import { type EffectAnswer, later } from './mergeEffects.js'
import type { ToolBatchRunner } from './toolBatch.js'

type AbortCell = { controller?: AbortController }
const controllerIn = (cell: AbortCell): AbortController => {
  cell.controller ??= new AbortController()
  return cell.controller
}

const NO_CONTEXTS: Admission = Object.freeze({ additionalContexts: Object.freeze([]) })

export type EffectRunnerDeps<A> = {
  readonly agent: A
  readonly agentId: string
  readonly model: ModelAdapter
  readonly system?: string
  readonly hooks: AgentHooks<A>
  readonly toolSpecs: readonly ToolSpec[]
  readonly runTools: ToolBatchRunner<A>
  readonly transcript: Transcript
  readonly store: SessionStore
  readonly scheduler: SchedulerLike
  /** Feeds a signal to the reducer later (a scheduled move); immediate answers are returned. */
  readonly post: (signal: Signal) => void
  /** Completes the pipeline's inputs: `events$` and `transcript$` complete after the drain. */
  readonly complete: () => void
}

/**
 * Turns effects into their answers: signals known at once, or an Observable of them. Every effect of an activity runs with that
 * activity's `AbortSignal` and stops (unsubscribes) at its `stop` effect, which the reducer emits
 * only after the abort listeners ran (R25).
 */
export const createEffectRunner = <A>(deps: EffectRunnerDeps<A>): ((effect: Effect) => EffectAnswer) => {
  /**
   * An activity's abort controller lives in a cell made per activity; the controller itself is
   * made on first use, since most turns never read their signal. Readers keep the cell, so a
   * signal first read after the activity stopped is still the aborted one when it was aborted.
   */
  const cells = new Map<number, AbortCell>()
  const cellOf = (activity: number): AbortCell => {
    let cell = cells.get(activity)
    if (cell === undefined) {
      cell = {}
      cells.set(activity, cell)
    }
    return cell
  }
  const controllerOf = (activity: number): AbortController => controllerIn(cellOf(activity))
  const stop$ = new Subject<number>()
  const signalOf = (activity: number): AbortSignal => controllerOf(activity).signal
  const untilStopped =
    (activity: number) =>
    (source: Observable<Signal>): Observable<Signal> =>
      source.pipe(takeUntil(stop$.pipe(filter((id) => id === activity))))
  const { agent } = deps
  const modelDeps = {
    ...deps,
    untilStopped: (activity: number, answer: Observable<Signal>) => answer.pipe(untilStopped(activity)),
  }
  /**
   * Hands over what the store missed (R40) and starts making everything appended so far durable;
   * `undefined` when there is nothing to wait for.
   */
  const flushStarted = (): Observable<never> | undefined =>
    startFlush(deps.transcript, deps.store)?.pipe(ignoreElements())

  const runHooks = <Args>(hooks: readonly ((args: Args) => unknown)[], args: Args): Observable<never> =>
    concat(...hooks.map((hook) => callHook(() => hook(args)).pipe(ignoreElements())))

  return (effect) => {
    switch (effect.kind) {
      case 'post':
        return effect.input
      case 'schedule':
        later(deps.scheduler, effect.late ? 2 : 1, () => deps.post(effect.input))
        return undefined
      case 'abort':
        // Made here if nobody read the signal yet, so a later read sees it aborted.
        controllerOf(effect.activity).abort(Object.freeze({ ...effect.cause }))
        return undefined
      case 'stop':
        stop$.next(effect.activity)
        cells.delete(effect.activity)
        return undefined
      case 'prompt-submit': {
        const { activity, content, source } = effect
        const hooks = hookList(deps.hooks.promptSubmit)
        if (hooks.length === 0) return { type: 'admission/allowed', activity, admission: NO_CONTEXTS }
        return decideAdmission(hooks, activity, { agent, content, source, signal: signalOf(activity) }).pipe(
          untilStopped(activity),
        )
      }
      case 'step-hook': {
        const { activity, turn, step } = effect
        const hooks = hookList(deps.hooks.step)
        if (hooks.length === 0) return { type: 'step-hook/done', activity, step }
        const args = { agent, turn, step, signal: signalOf(activity) }
        return runHooks(hooks, args).pipe(
          endWith<Signal>({ type: 'step-hook/done', activity, step }),
          catchError((error: unknown) => of<Signal>({ type: 'hook/failed', activity, step, error })),
          untilStopped(activity),
        )
      }
      case 'model': {
        const cell = cellOf(effect.activity)
        // Fields named, not spread: a spread into a literal takes V8's slow path (issue #7).
        const call = {
          activity: effect.activity,
          turn: effect.turn,
          step: effect.step,
          signal: () => controllerIn(cell).signal,
        }
        return callModel(modelDeps, call)
      }
      case 'tools': {
        const { activity, step } = effect
        return defer(() => deps.runTools({ ...effect, agent, signal: signalOf(activity) })).pipe(
          catchError((error: unknown) => of<Signal>({ type: 'tools/failed', activity, step, error })),
          untilStopped(activity),
        )
      }
      case 'turn-stopping': {
        const { activity, turn, step } = effect
        const hooks = hookList(deps.hooks.turnStopping)
        if (hooks.length === 0) return { type: 'turn-stopping/done', activity }
        return runHooks(hooks, { agent, turn, signal: signalOf(activity) }).pipe(
          endWith<Signal>({ type: 'turn-stopping/done', activity }),
          catchError((error: unknown) => of<Signal>({ type: 'hook/failed', activity, step, error })),
          untilStopped(activity),
        )
      }
      case 'request-error': {
        const { activity, turn, step, error } = effect
        const hooks = hookList(deps.hooks.requestError)
        if (hooks.length === 0) return { type: 'request-error/done', activity }
        const args = { agent, turn, step, error, signal: signalOf(activity) }
        // A failing requestError hook cannot make the turn fail twice: the request error stands.
        return runHooks(hooks, args).pipe(
          catchError(() => EMPTY),
          endWith<Signal>({ type: 'request-error/done', activity }),
          untilStopped(activity),
        )
      }
      case 'persist':
        try {
          const pending = flushStarted()
          if (pending === undefined) return undefined
          return pending.pipe(catchError((error: unknown) => of<Signal>({ type: 'store/failed', error })))
        } catch (error) {
          return { type: 'store/failed', error }
        }
      case 'checkpoint': {
        const { activity } = effect
        // The turn has ended: a turn that was not aborted gets no 'stop', so its cell goes here
        // (one per turn was kept forever before; readers that kept the request still hold it).
        cells.delete(activity)
        try {
          const pending = flushStarted()
          if (pending === undefined) return { type: 'checkpoint/done', activity }
          return pending.pipe(
            endWith<Signal>({ type: 'checkpoint/done', activity }),
            catchError((error: unknown) => of<Signal>({ type: 'checkpoint/failed', activity, error })),
          )
        } catch (error) {
          return { type: 'checkpoint/failed', activity, error }
        }
      }
      case 'finalize':
        return finalizeStore(deps.transcript, deps.store)
      case 'complete':
        deps.complete()
        return undefined
    }
  }
}
