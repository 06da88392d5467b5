import { redact } from './redact.js'

/**
 * An error from outside code (a fetch's rejection, a provider's error) fit to keep as a `cause`: the
 * same value when no message in its cause chain holds a secret, else a copy of each link with its
 * message redacted (same prototype, so `instanceof` still holds; same `name` and `code`; a new
 * stack). A plain object (a provider's error part) is kept when its JSON holds no secret, else
 * replaced by a copy made from its redacted JSON. A value that cannot be read (a revoked Proxy, a
 * throwing getter) is kept as it is: it cannot hold anything this adapter put there.
 */
export const redactCause = (error: unknown, secrets: readonly string[], depth = 0): unknown => {
  try {
    if (typeof error === 'string') return redact(error, secrets)
    if (depth > 8) return error
    if (!(error instanceof Error)) return redactData(error, secrets)
    const cause = redactCause(error.cause, secrets, depth + 1)
    const message = String(error.message)
    if (cause === error.cause && redact(message, secrets) === message) return error
    const copy = new Error(redact(message, secrets), 'cause' in error ? { cause } : undefined)
    Object.setPrototypeOf(copy, Object.getPrototypeOf(error))
    copy.name = String(error.name)
    const code = (error as { code?: unknown }).code
    if (code !== undefined) Object.assign(copy, { code })
    return copy
  } catch {
    return error
  }
}

/** Data that is not an `Error`: the same value, or a copy from its redacted JSON when that differs. */
const redactData = (value: unknown, secrets: readonly string[]): unknown => {
  if (typeof value !== 'object' || value === null) return value
  let json: string | undefined
  try {
    json = JSON.stringify(value)
  } catch {
    return undefined // a cycle or a BigInt: nothing that can be checked is kept
  }
  if (json === undefined) return value
  const clean = redact(json, secrets)
  return clean === json ? value : JSON.parse(clean)
}
