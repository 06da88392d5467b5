import { type InputIssue, InvalidInputError } from '../../contracts/errors.js'

/**
 * What an option may be: a whole number of 1 or more; milliseconds (`min` or more, and at most what
 * a timer can wait: Node fires a longer `setTimeout` at once); a function; a `pg.Pool`.
 */
export type OptionRule =
  | { readonly kind: 'count'; readonly example: number }
  | { readonly kind: 'ms'; readonly min: number; readonly example: number }
  | { readonly kind: 'function'; readonly required?: boolean }
  | { readonly kind: 'pool'; readonly required?: boolean }

/** The longest wait a Node timer honours (2^31 - 1 ms, about 24.8 days). */
export const MAX_TIMER_MS = 2_147_483_647

/**
 * Throws one `InvalidInputError` naming `call` and every bad option of `options` (unknown keys
 * too, with a likely spelling), before anything starts; `undefined` stands for no options.
 */
export const checkOptions = (call: string, options: unknown, rules: Readonly<Record<string, OptionRule>>) => {
  if (options === undefined) return
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new InvalidInputError(call, [{ path: ['options'], message: 'expected an object of options' }])
  const known = Object.keys(rules)
  const issues: InputIssue[] = []
  for (const key of Object.keys(options))
    if (!known.includes(key)) issues.push({ path: ['options', key], message: unknownKey(key, known) })
  for (const [key, rule] of Object.entries(rules)) {
    const message = problem(rule, (options as Record<string, unknown>)[key])
    if (message) issues.push({ path: ['options', key], message })
  }
  if (issues.length > 0) throw new InvalidInputError(call, issues)
}

/** An unknown key's message: the known key it differs from only in case, or all of them. */
const unknownKey = (key: string, known: readonly string[]): string => {
  const close = known.find((k) => k.toLowerCase() === key.toLowerCase())
  return close ? `unknown key; did you mean ${close}?` : `unknown key; expected one of ${known.join(', ')}`
}

const shown = (value: unknown): string =>
  typeof value === 'string' ? JSON.stringify(value) : typeof value === 'number' ? String(value) : typeof value

const problem = (rule: OptionRule, value: unknown): string | undefined => {
  switch (rule.kind) {
    case 'count':
      if (value === undefined || (Number.isSafeInteger(value) && (value as number) >= 1)) return undefined
      return `expected a whole number, 1 or more (such as ${rule.example}), got ${shown(value)}`
    case 'ms':
      if (value === undefined) return undefined
      if (typeof value === 'number' && Number.isFinite(value) && value >= rule.min && value <= MAX_TIMER_MS)
        return undefined
      return (
        `expected a number of milliseconds from ${rule.min} to ${MAX_TIMER_MS} (such as ${rule.example}), ` +
        `got ${shown(value)}`
      )
    case 'function':
      if (typeof value === 'function' || (value === undefined && !rule.required)) return undefined
      return `expected a function, got ${shown(value)}`
    case 'pool':
      if (isPool(value) || (value === undefined && !rule.required)) return undefined
      return `expected a pg.Pool (an object with connect()), got ${value === null ? 'null' : shown(value)}`
  }
}

/** Throws `InvalidInputError` naming `call` unless `pool` looks like a `pg.Pool`. */
export const checkPool = (call: string, pool: unknown): void => {
  const message = problem({ kind: 'pool', required: true }, pool)
  if (message) throw new InvalidInputError(call, [{ path: ['pool'], message }])
}

const isPool = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { connect?: unknown }).connect === 'function'

/** The most connections `pool` opens, when it says (`pg.Pool` keeps it in `options.max`). */
export const poolSize = (pool: unknown): number | undefined => {
  const max = (pool as { options?: { max?: unknown } } | null)?.options?.max
  return typeof max === 'number' && Number.isFinite(max) ? max : undefined
}
