import { defer, from, isObservable, type Observable, observable, of } from 'rxjs'

const NO_HOOKS: readonly never[] = Object.freeze([])

export const hookList = <F>(hooks: F | readonly F[] | undefined): readonly F[] =>
  hooks === undefined ? NO_HOOKS : Array.isArray(hooks) ? (hooks as readonly F[]) : [hooks as F]

const isStreamLike = (value: unknown): boolean => {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false
  const v = value as Record<PropertyKey, unknown>
  return (
    isObservable(value) ||
    typeof v[observable] === 'function' ||
    typeof v.then === 'function' ||
    typeof v[Symbol.asyncIterator] === 'function'
  )
}

/**
 * Calls a hook as an Observable: a synchronous throw becomes an error notification, a stream is
 * followed, any other value (arrays and strings included) is emitted as one value.
 */
export const callHook = <T>(call: () => unknown): Observable<T> =>
  defer(() => {
    const result = call()
    return (isStreamLike(result) ? from(result as Observable<T>) : of(result)) as Observable<T>
  })
