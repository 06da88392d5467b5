import {
  catchError,
  concat,
  concatMap,
  defaultIfEmpty,
  defer,
  EMPTY,
  endWith,
  filter,
  from,
  ignoreElements,
  map,
  Observable,
  of,
  type SchedulerLike,
  Subject,
  type Subscription,
  take,
  takeUntil,
  takeWhile,
} from 'rxjs'
import type { Message } from '../messages/types.js'
import type { Transcript } from '../session/session.js'
import { flushTranscript, type SessionStore } from '../session/store.js'
import { type AgentHooks, callHook, hookList } from './hooks.js'
import type { Effect, Signal } from './inputs.js'
import type { ModelAdapter, ToolSpec } from './model.js'
import { parseModelEvent } from './modelEvent.js'
import { type DecisionAcc, parseDecision } from './parseDecision.js'
import type { ToolBatchRunner } from './toolBatch.js'

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
  /** Completes the pipeline's inputs: `events$` and `transcript$` complete after the drain. */
  readonly complete: () => void
}

/**
 * Turns effects into Observables of signals. Every effect of an activity runs with that
 * activity's `AbortSignal` and stops (unsubscribes) at its `stop` effect, which the reducer emits
 * only after the abort listeners ran (R25).
 */
export const createEffectRunner = <A>(
  deps: EffectRunnerDeps<A>,
): ((effect: Effect) => Observable<Signal>) => {
  const controllers = new Map<number, AbortController>()
  const stop$ = new Subject<number>()
  const signalOf = (activity: number): AbortSignal => {
    const controller = controllers.get(activity) ?? new AbortController()
    controllers.set(activity, controller)
    return controller.signal
  }
  const untilStopped =
    (activity: number) =>
    (source: Observable<Signal>): Observable<Signal> =>
      source.pipe(takeUntil(stop$.pipe(filter((id) => id === activity))))
  const { agent } = deps
  /** Hands over what the store missed (R40), then makes everything appended so far durable. */
  const flush = (): Observable<never> => flushTranscript(deps.transcript, deps.store).pipe(ignoreElements())

  const runHooks = <Args>(hooks: readonly ((args: Args) => unknown)[], args: Args): Observable<never> =>
    concat(...hooks.map((hook) => callHook(() => hook(args)).pipe(ignoreElements())))

  return (effect) => {
    switch (effect.kind) {
      case 'post':
        return of(effect.input)
      case 'schedule':
        return later(deps.scheduler, effect.input, effect.late ? 2 : 1)
      case 'abort':
        return defer(() => {
          controllers.get(effect.activity)?.abort(Object.freeze({ ...effect.cause }))
          return EMPTY
        })
      case 'stop':
        return defer(() => {
          stop$.next(effect.activity)
          controllers.delete(effect.activity)
          return EMPTY
        })
      case 'prompt-submit': {
        const { activity, content, source } = effect
        if (hookList(deps.hooks.promptSubmit).length === 0)
          return of<Signal>({ type: 'admission/allowed', activity, admission: { additionalContexts: [] } })
        const signal = signalOf(activity)
        const initial: DecisionAcc = { content, rewritten: false, contexts: [], blocked: false }
        const decided = hookList(deps.hooks.promptSubmit).reduce<Observable<DecisionAcc>>(
          (acc$, hook) =>
            acc$.pipe(
              concatMap((acc) =>
                acc.blocked
                  ? of(acc)
                  : callHook(() => hook({ agent, content: acc.content, source, signal })).pipe(
                      take(1),
                      defaultIfEmpty(undefined),
                      map((decision) => parseDecision(acc, decision)),
                    ),
              ),
            ),
          of(initial),
        )
        return decided.pipe(
          map((acc): Signal => {
            if (acc.blocked) return { type: 'admission/blocked', activity, reason: acc.reason }
            const admission = {
              additionalContexts: acc.contexts,
              ...(acc.rewritten ? { content: acc.content } : {}),
            }
            return { type: 'admission/allowed', activity, admission }
          }),
          catchError((error: unknown) => of<Signal>({ type: 'admission/failed', activity, error })),
          untilStopped(activity),
        )
      }
      case 'step-hook': {
        const { activity, turn, step } = effect
        if (hookList(deps.hooks.step).length === 0)
          return of<Signal>({ type: 'step-hook/done', activity, step })
        const args = { agent, turn, step, signal: signalOf(activity) }
        return runHooks(hookList(deps.hooks.step), args).pipe(
          endWith<Signal>({ type: 'step-hook/done', activity, step }),
          catchError((error: unknown) => of<Signal>({ type: 'hook/failed', activity, step, error })),
          untilStopped(activity),
        )
      }
      case 'model': {
        const { activity, turn, step } = effect
        // The messages are taken at this position but copied only if the adapter reads them:
        // a copy per step of the whole history is O(n) per step, O(n²) over a session.
        const transcript = deps.transcript
        const count = transcript.messageCount
        let messages: readonly Message[] | undefined
        const request = {
          agentId: deps.agentId,
          turn,
          step,
          ...(deps.system !== undefined ? { system: deps.system } : {}),
          get messages() {
            messages ??= transcript.messagesAt(count)
            return messages
          },
          tools: deps.toolSpecs,
          signal: signalOf(activity),
        }
        return defer(() => from(deps.model(request))).pipe(
          map(parseModelEvent),
          takeWhile((event) => event.type !== 'finish', true),
          map((event): Signal => ({ type: 'model/event', activity, step, event })),
          endWith<Signal>({ type: 'model/complete', activity, step }),
          catchError((error: unknown) => of<Signal>({ type: 'model/failed', activity, step, error })),
          untilStopped(activity),
        )
      }
      case 'tools':
        return deps
          .runTools({ ...effect, agent, signal: signalOf(effect.activity) })
          .pipe(untilStopped(effect.activity))
      case 'turn-stopping': {
        const { activity, turn, step } = effect
        if (hookList(deps.hooks.turnStopping).length === 0)
          return of<Signal>({ type: 'turn-stopping/done', activity })
        return runHooks(hookList(deps.hooks.turnStopping), { agent, turn, signal: signalOf(activity) }).pipe(
          endWith<Signal>({ type: 'turn-stopping/done', activity }),
          catchError((error: unknown) => of<Signal>({ type: 'hook/failed', activity, step, error })),
          untilStopped(activity),
        )
      }
      case 'request-error': {
        const { activity, turn, step, error } = effect
        const args = { agent, turn, step, error, signal: signalOf(activity) }
        // A failing requestError hook cannot make the turn fail twice: the request error stands.
        return runHooks(hookList(deps.hooks.requestError), args).pipe(
          catchError(() => EMPTY),
          endWith<Signal>({ type: 'request-error/done', activity }),
          untilStopped(activity),
        )
      }
      case 'persist':
        return flush().pipe(catchError((error: unknown) => of<Signal>({ type: 'store/failed', error })))
      case 'checkpoint': {
        const { activity } = effect
        return flush().pipe(
          endWith<Signal>({ type: 'checkpoint/done', activity }),
          catchError((error: unknown) => of<Signal>({ type: 'checkpoint/failed', activity, error })),
        )
      }
      case 'finalize':
        return concat(
          flush().pipe(catchError((error: unknown) => of<Signal>({ type: 'store/failed', error }))),
          defer(() => {
            deps.store.close?.()
            return EMPTY
          }).pipe(catchError((error: unknown) => of<Signal>({ type: 'store/failed', error }))),
          of<Signal>({ type: 'finalized' }),
        )
      case 'complete':
        return defer(() => {
          deps.complete()
          return EMPTY
        })
    }
  }
}

/**
 * Emits `value` and completes in one scheduled action, `hops` actions later. Each hop is a new
 * action, so on `asapScheduler` the second hop runs in a later microtask than anything queued
 * before the first one ran; on a `TestScheduler` both run in the same frame.
 */
const later = <T>(scheduler: SchedulerLike, value: T, hops: number): Observable<T> =>
  new Observable<T>((subscriber) => {
    const hop = (left: number): Subscription =>
      scheduler.schedule(() => {
        if (left > 1) subscriber.add(hop(left - 1))
        else {
          subscriber.next(value)
          subscriber.complete()
        }
      })
    return hop(hops)
  })
