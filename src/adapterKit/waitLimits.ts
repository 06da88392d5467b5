import type { FieldRules } from '../messages/checkInput.js'
import { optional, timerMs } from '../messages/fieldRules.js'

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

const waitMs = optional(timerMs(1, `about 24 days at most; ${defaultWaitMs} when left out`))

/** The rules of the two options, for the adapter's own option check (`checkInput`). */
export const WAIT_LIMIT_RULES: FieldRules = { headersTimeoutMs: waitMs, idleTimeoutMs: waitMs }

/** The limits of options checked by {@link WAIT_LIMIT_RULES}, each `defaultWaitMs` when unset. */
export const waitLimitsOf = (options: {
  readonly headersTimeoutMs?: number | undefined
  readonly idleTimeoutMs?: number | undefined
}): WaitLimits => ({
  headersTimeoutMs: options.headersTimeoutMs ?? defaultWaitMs,
  idleTimeoutMs: options.idleTimeoutMs ?? defaultWaitMs,
})

/**
 * What to do about a wait that ran out, in the same words for both adapters; `raise` shows the
 * call that raises an option (`openaiModel({ idleTimeoutMs })`).
 */
export const timeoutAdvice = (wait: WaitName, raise: (option: WaitName) => string): string =>
  `retrying the request may help, or raise ${raise(wait)} ` +
  (wait === 'headersTimeoutMs'
    ? 'for a server that takes longer to start answering (a long prompt on a slow machine)'
    : 'for a model that stays silent longer (a long prompt or a long reasoning before it streams)')
