import { InvalidInputError } from '../contracts/errors.js'
import { type Path, unreadable } from './snapshot.js'

/** Whether `error` is our own refusal; `instanceof` itself throws on a revoked Proxy. */
export const isRefusal = (error: unknown): boolean => {
  try {
    return error instanceof InvalidInputError
  } catch {
    return false
  }
}

/**
 * Runs a parse of caller data. Reading that data may run the caller's code (a getter, a Proxy
 * trap), which may throw anything: that is bad input like any other (R2), refused with
 * `InvalidInputError` at `path` instead of escaping as the raw error.
 */
export const guarded = <T>(call: string, path: Path, parse: () => T): T => {
  try {
    return parse()
  } catch (error) {
    if (isRefusal(error)) throw error
    throw new InvalidInputError(call, [{ path, message: unreadable(error) }])
  }
}
