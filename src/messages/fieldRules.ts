/**
 * The rules that options of many calls share, each with one wording everywhere: a whole number, a
 * wait in milliseconds, a function, a string. `hint` says more about the option (`such as 4`,
 * `leave it out for no bound`); a message also quotes what it got, so a caller sees the mistake.
 */
import type { FieldRule } from './checkInput.js'
import { describeValue } from './describeValue.js'

/** The longest wait a timer honours (2^31 - 1 ms, about 24.8 days): Node fires a longer one at once. */
export const MAX_TIMER_MS = 2_147_483_647

const hinted = (hint: string | undefined): string => (hint === undefined ? '' : ` (${hint})`)

/** `rule`, except that leaving the option out (`undefined`) is fine. */
export const optional =
  (rule: FieldRule): FieldRule =>
  (value, path, check) =>
    value === undefined ? undefined : rule(value, path, check)

/** A whole number, `min` or more. */
export const wholeNumber =
  (min: number, hint?: string): FieldRule =>
  (value) =>
    Number.isSafeInteger(value) && (value as number) >= min
      ? undefined
      : `expected a whole number, ${min} or more${hinted(hint)}, got ${describeValue(value)}`

/** Milliseconds a timer can wait: from `min` to {@link MAX_TIMER_MS}. */
export const timerMs =
  (min: number, hint?: string): FieldRule =>
  (value) =>
    typeof value === 'number' && value >= min && value <= MAX_TIMER_MS
      ? undefined
      : `expected a number of milliseconds from ${min} to ${MAX_TIMER_MS}${hinted(hint)}, ` +
        `got ${describeValue(value)}`

/** A limit in milliseconds: a number above 0, `Infinity` for none. */
export const isTimeout = (value: unknown): boolean => typeof value === 'number' && value > 0

/** A limit in milliseconds above 0 (`Infinity` for none). */
export const timeoutMs =
  (hint?: string): FieldRule =>
  (value) =>
    isTimeout(value)
      ? undefined
      : `expected a number of milliseconds > 0${hinted(hint)}, got ${describeValue(value)}`

/** A function; `what` says which (`(request) => stream of model events`). */
export const aFunction =
  (what?: string): FieldRule =>
  (value) =>
    typeof value === 'function'
      ? undefined
      : `expected a function${hinted(what)}, got ${describeValue(value)}`

/** A string, empty or not. */
export const aString: FieldRule = (value) =>
  typeof value === 'string' ? undefined : `expected a string, got ${describeValue(value)}`

/** A string with something in it. */
export const nonEmptyString =
  (hint?: string): FieldRule =>
  (value) =>
    typeof value === 'string' && value !== ''
      ? undefined
      : `expected a non-empty string${hinted(hint)}, got ${describeValue(value)}`
