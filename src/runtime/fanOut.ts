import { Observable, type SubjectLike, type Subscriber } from 'rxjs'

/**
 * A multicast for `connect`'s `connector` option: what `splitSends` shares its one subscription
 * to the sends with, between the queue and the inject branches. Behaves like the `Subject` that
 * `connect` makes by default (values reach the subscribers of the moment, in subscription order;
 * a late subscriber gets only the termination), without its cost: RxJS's `Subject.next` runs
 * its observer loop in a closure with an ES5 iterator in the CommonJS build that Node loads,
 * about 0.26 µs and several objects per value, on every accepted send
 * (docs/performance.md#inlets-instead-of-subjects).
 *
 * 1. The subscriber list is copied on change, never on `next`, so a subscriber that leaves
 *    during a delivery does not disturb it.
 * 2. After `error` or `complete`, nothing more is delivered, and new subscribers are told so.
 */
export const fanOut = <T>(): SubjectLike<T> => {
  let targets: readonly Subscriber<T>[] = []
  let ended: { readonly error: unknown } | 'complete' | undefined
  const end = (how: { readonly error: unknown } | 'complete'): void => {
    if (ended) return
    ended = how
    const list = targets
    targets = []
    for (const target of list) how === 'complete' ? target.complete() : target.error(how.error)
  }
  const observable = new Observable<T>((subscriber) => {
    if (ended) return ended === 'complete' ? subscriber.complete() : subscriber.error(ended.error)
    targets = [...targets, subscriber]
    return () => {
      targets = targets.filter((target) => target !== subscriber)
    }
  })
  return {
    subscribe: (observer) => observable.subscribe(observer),
    next: (value) => {
      if (ended) return
      const list = targets
      for (let i = 0; i < list.length; i++) (list[i] as Subscriber<T>).next(value)
    },
    error: (error) => end({ error }),
    complete: () => end('complete'),
  }
}
