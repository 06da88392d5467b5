import { Observable, type Observer } from 'rxjs'

/**
 * Like `merge(...sources)`, for the engine's inlets: each source is subscribed once with one
 * shared observer, without `merge`'s machinery for inner subscriptions (an array source, an
 * outer subscriber, one operator subscriber per inner), which is built again each time an agent's
 * engine is (docs/performance.md#a-cheap-engine).
 *
 * ```text
 * a:       --1-----3--|
 * b:       -----2-------|
 * output:  --1--2--3----|
 * ```
 *
 * 1. Values pass through as they arrive, synchronously.
 * 2. The first error errors the output (and unsubscribes the other sources).
 * 3. The output completes when every source has completed.
 */
export const mergeInputs = <T>(...sources: readonly Observable<T>[]): Observable<T> =>
  new Observable<T>((subscriber) => {
    let open = sources.length
    const observer: Observer<T> = {
      next: (value) => subscriber.next(value),
      error: (error: unknown) => subscriber.error(error),
      complete: () => {
        if (--open === 0) subscriber.complete()
      },
    }
    for (const source of sources) {
      if (subscriber.closed) break
      subscriber.add(source.subscribe(observer))
    }
    if (sources.length === 0) subscriber.complete()
  })
