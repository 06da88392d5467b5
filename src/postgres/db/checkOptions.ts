import type { FieldRule, FieldRules, InputCheck } from '../../messages/checkInput.js'
import { describeValue } from '../../messages/describeValue.js'

/**
 * Records in `check` every bad option of `options` by `rules` (unknown keys too, with a likely
 * spelling); `undefined` stands for no options. `createWorker` and `connectSessions` check their
 * options with it before anything starts.
 */
export const checkOptionsOf = (check: InputCheck, options: unknown, rules: FieldRules): void => {
  if (options === undefined) return
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    return check.add(['options'], 'expected an object of options')
  check.knownKeys(options, Object.keys(rules), ['options'])
  check.fields(options, ['options'], rules)
}

/** A `pg.Pool`, or anything with `connect()` as it has. */
export const poolRule: FieldRule = (value) =>
  isPool(value) ? undefined : `expected a pg.Pool (an object with connect()), got ${describeValue(value)}`

const isPool = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { connect?: unknown }).connect === 'function'

/** The most connections `pool` opens, when it says (`pg.Pool` keeps it in `options.max`). */
export const poolSize = (pool: unknown): number | undefined => {
  const max = (pool as { options?: { max?: unknown } } | null)?.options?.max
  return typeof max === 'number' && Number.isFinite(max) ? max : undefined
}
