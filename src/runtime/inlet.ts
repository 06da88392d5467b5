import { Observable, type Subscriber } from 'rxjs'

/** The writing end of an inlet; `observable` is the reading end, for exactly one subscriber. */
export type Inlet<T> = {
  readonly observable: Observable<T>
  next(value: T): void
  complete(): void
}

/**
 * A hot source for exactly one subscriber: where the façade feeds the pipeline (sends, commands,
 * signals), each read by one `merge`. Values before the subscription or after `complete` are
 * dropped, as with a `Subject`.
 *
 * Why not a `Subject`: on every `next` RxJS's Subject iterates its observer list, and in the
 * CommonJS build that Node loads that loop is ES5 (an iterator object, a closure and a result
 * per observer), ~200 B of garbage per value for a list of one. Inputs are the hottest path
 * (every send, every turn step): see docs/performance.md#inlets-instead-of-subjects.
 *
 * `onNext` is called for each value that goes to the subscriber, just before it does (the agent
 * counts the inputs entering its pipeline with it, without an operator per input).
 *
 * A second subscription, a wiring defect, gets an error notification.
 */
export const inlet = <T>(onNext?: () => void): Inlet<T> => {
  let target: Subscriber<T> | undefined
  let done = false
  return {
    observable: new Observable<T>((subscriber) => {
      if (target !== undefined) {
        subscriber.error(new Error('inlet: a second subscriber (one merge reads it)'))
        return
      }
      if (done) {
        subscriber.complete()
        return
      }
      target = subscriber
      return () => {
        target = undefined
      }
    }),
    next: (value) => {
      if (done || target === undefined) return
      onNext?.()
      target.next(value)
    },
    complete: () => {
      if (done) return
      done = true
      target?.complete()
    },
  }
}
