import { Observable, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs'
import type { Effect } from '../machine/effects.js'
import type { Signal } from '../machine/inputs.js'

/**
 * What running one effect gives back: signals known at once (one, several, or none), or an
 * Observable of the signals still to come. Most effects of a turn without hooks are answered
 * at once; an Observable would cost a subscription chain each
 * (docs/performance.md#answers-known-at-once).
 */
export type EffectAnswer = Signal | readonly Signal[] | Observable<Signal> | undefined

/**
 * Told when an answer starts to wait and when it is done (completed, errored or unsubscribed):
 * the driver releases its pipeline only while no answer waits.
 */
export type AnswerWatch = { answerStarted(): void; answerEnded(): void }

/**
 * Like `mergeMap(run)` over effects (or over anything `run` picks effects from, answering
 * `undefined` for the rest, so no `filter` hop is needed in front), except that answers known at once are
 * emitted directly, without an inner subscription.
 *
 * ```text
 * effects:  --a----b------c--|      a answers at once, b later (an Observable), c with nothing
 * signals:  --A---------B----|      completes when the effects and every pending answer have
 * ```
 *
 * 1. Signals of one answer keep their order; answers known at once come before `run` returns.
 * 2. A throwing `run` or an erroring answer errors the output (the runner's answers catch their
 *    own failures and turn them into signals, so this is a defect, not a path).
 * 3. Unsubscribing unsubscribes every pending answer; finished ones are released at once, so a
 *    long session does not accumulate closed subscriptions.
 * 4. `watch`, when given, is told when each answer that waits starts and ends.
 */
export const mergeEffects =
  <T = Effect>(run: (effect: T) => EffectAnswer, watch?: AnswerWatch): OperatorFunction<T, Signal> =>
  (effects) =>
    new Observable<Signal>((subscriber) => {
      let pending = 0
      let effectsDone = false
      const completeIfDone = (): void => {
        if (effectsDone && pending === 0) subscriber.complete()
      }
      const follow = (answer: Observable<Signal>): void => {
        pending++
        watch?.answerStarted()
        let inner: Subscription | undefined
        inner = answer.subscribe({
          next: (signal) => subscriber.next(signal),
          error: (error: unknown) => subscriber.error(error),
          complete: () => {
            pending--
            if (inner) subscriber.remove(inner)
            completeIfDone()
          },
        })
        // Ends once, however the answer ends (complete, error, or the pipeline's unsubscribe).
        if (watch) inner.add(() => watch.answerEnded())
        if (!inner.closed) subscriber.add(inner)
        else inner = undefined
      }
      subscriber.add(
        effects.subscribe({
          next: (effect) => {
            let answer: EffectAnswer
            try {
              answer = run(effect)
            } catch (error) {
              subscriber.error(error)
              return
            }
            if (answer === undefined) return
            if (answer instanceof Observable) follow(answer)
            else if (Array.isArray(answer))
              for (const signal of answer as readonly Signal[]) subscriber.next(signal)
            else subscriber.next(answer as Signal)
          },
          error: (error: unknown) => subscriber.error(error),
          complete: () => {
            effectsDone = true
            completeIfDone()
          },
        }),
      )
    })

/**
 * Runs `action` in one scheduled action, `hops` actions later. Each hop is a new action, so on
 * `asapScheduler` the second hop runs in a later microtask than anything queued before the first
 * one ran; on a `TestScheduler` both run in the same frame. Not cancellable: a move scheduled by
 * the reducer always arrives, and the reducer ignores it when it is stale.
 */
export const later = (scheduler: SchedulerLike, hops: number, action: () => void): void => {
  scheduler.schedule(() => (hops > 1 ? later(scheduler, hops - 1, action) : action()))
}
