/**
 * The bounds on the waits of one model request, in milliseconds: the same options, defaults and
 * checks in both adapters.
 */
export type WaitLimits = {
  /** How long the answer may take to start: the response headers, or `doStream` resolving. */
  readonly headersTimeoutMs: number
  /** How long the answer may then stay silent between two parts. */
  readonly idleTimeoutMs: number
}

export type WaitName = keyof WaitLimits

/**
 * Two minutes: longer than a healthy server usually stays silent (a local model reading a long
 * prompt, a reasoning model thinking before it streams), and shorter than the five minutes after
 * which Node's own fetch gives up (undici's `headersTimeout` and `bodyTimeout`), so that the error
 * is the adapter's, which names the option to raise.
 */
export const defaultWaitMs = 120_000

/** Timers take at most 2^31 - 1 ms; a larger delay would fire at once. */
const maxDelay = 2 ** 31 - 1

/**
 * The limits of the options (each `defaultWaitMs` when unset), or a `TypeError` that names the
 * option and gives the range, thrown as `${caller}(): options.…`.
 */
export const waitLimitsOf = (
  caller: string,
  options: { readonly headersTimeoutMs?: unknown; readonly idleTimeoutMs?: unknown },
): WaitLimits => {
  const limit = (name: WaitName): number => {
    const ms = options[name]
    if (ms === undefined) return defaultWaitMs
    if (typeof ms === 'number' && ms >= 1 && ms <= maxDelay) return ms
    throw new TypeError(
      `${caller}(): options.${name}: expected milliseconds from 1 to ${maxDelay} (about 24 days), ` +
        `got ${typeof ms === 'number' || typeof ms === 'string' ? String(ms) : typeof ms}`,
    )
  }
  return { headersTimeoutMs: limit('headersTimeoutMs'), idleTimeoutMs: limit('idleTimeoutMs') }
}

/**
 * What to do about a wait that ran out, in the same words for both adapters; `raise` shows the
 * call that raises an option (`openaiModel({ idleTimeoutMs })`).
 */
export const timeoutAdvice = (wait: WaitName, raise: (option: WaitName) => string): string =>
  `retrying the request may help, or raise ${raise(wait)} ` +
  (wait === 'headersTimeoutMs'
    ? 'for a server that takes longer to start answering (a long prompt on a slow machine)'
    : 'for a model that stays silent longer (a long prompt or a long reasoning before it streams)')
