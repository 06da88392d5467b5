/**
 * A fast structural check made from a schema's own definition, for the values the stores read
 * most (docs/performance.md, "Opening a long session"). It never decides a value is invalid: it
 * answers `true` only for a value the schema accepts, and `false` for anything it cannot vouch
 * for (a refinement, an `undefined` under an optional key, an object that is not a plain one),
 * so the caller asks the schema, which then decides and says what is wrong. The verdicts are the
 * schema's, several times faster; and as it is read from the schema, it cannot drift from it.
 */
import type * as z from 'zod/mini'
import { messageSourceSchema } from '../messages/schemas.js'

/** `true`: the schema accepts the value for sure; `false`: ask the schema. */
export type PlainCheck = (value: unknown) => boolean

type Schema = z.core.$ZodType
type Def = Record<string, unknown> & { readonly type: string; readonly checks?: readonly Schema[] }

const defOf = (schema: Schema): Def => schema._zod.def as unknown as Def
const askTheSchema: PlainCheck = () => false
const anything: PlainCheck = () => true

type Rec = Record<string, unknown>
const isRecord = (v: unknown): v is Rec => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false
  const proto = Object.getPrototypeOf(v)
  return proto === Object.prototype || proto === null
}

/** A message source of the kinds the agent writes most (`messageSourceSchema` is a refinement). */
const isCommonSource: PlainCheck = (v) => {
  if (!isRecord(v)) return false
  const keys = Object.keys(v).length
  if (v.kind === 'user') return keys === 1
  if (v.kind === 'plugin') return keys === 2 && typeof v.plugin === 'string'
  return v.kind === 'tool' && keys === 2 && typeof v.tool === 'string'
}

/** Schemas whose definition holds a function (a refinement): their checks are written by hand. */
const byHand = new Map<Schema, PlainCheck>([[messageSourceSchema as Schema, isCommonSource]])

/** The lower bound of `def`'s checks (a length or a value) and whether it is inclusive; `null` for none. */
const lowerBound = (def: Def): { readonly min: number; readonly inclusive: boolean } | null | undefined => {
  const checks = def.checks ?? []
  if (checks.length === 0) return null
  const c = (checks.length === 1 ? checks[0]?._zod.def : undefined) as Rec | undefined
  if (c?.check === 'min_length') return { min: c.minimum as number, inclusive: true }
  if (c?.check === 'greater_than') return { min: c.value as number, inclusive: c.inclusive === true }
  return undefined
}

/** A lower bound as a test of a number: `min` or more (`inclusive`), or more than `min`. */
const atLeast = (def: Def): ((n: number) => boolean) | null | undefined => {
  const bound = lowerBound(def)
  if (bound == null) return bound
  const { min, inclusive } = bound
  return inclusive ? (n) => n >= min : (n) => n > min
}

const strictObject = (def: Def): PlainCheck => {
  const catchall = def.catchall as Schema | undefined
  if (catchall === undefined || defOf(catchall).type !== 'never' || def.checks?.length) return askTheSchema
  const shape = def.shape as Rec
  const keys = Object.keys(shape)
  // A key read from the value may be inherited; none of the shape's may be one a plain object has.
  if (keys.some((key) => key in Object.prototype)) return askTheSchema
  const checks = keys.map((key) => {
    const getter = Object.getOwnPropertyDescriptor(shape, key)?.get !== undefined
    const optional = (shape[key] as Schema)._zod.optin === 'optional'
    if (!getter) return { key, optional, test: plainCheck(shape[key] as Schema) }
    // A getter in the shape (a recursive content block) makes a new schema each time it is read:
    // its check is made when first needed.
    let test: PlainCheck | undefined
    const lazy: PlainCheck = (v) => {
      test ??= plainCheck(shape[key] as Schema)
      return test(v)
    }
    return { key, optional, test: lazy }
  })
  const names = checks.map((c) => c.key)
  const tests = checks.map((c) => c.test)
  const optional = checks.map((c) => c.optional)
  return (v) => {
    if (!isRecord(v)) return false
    let own = 0
    for (const key in v)
      if (Object.hasOwn(v, key)) own++
      else return false
    let matched = 0
    for (let i = 0; i < names.length; i++) {
      const value = v[names[i] as string]
      if (value !== undefined) {
        if (!(tests[i] as PlainCheck)(value)) return false
        matched++
      } else if (!optional[i] || Object.hasOwn(v, names[i] as string)) return false
    }
    // Every own key is one of the shape's: none is unknown.
    return own === matched
  }
}

const union = (def: Def): PlainCheck => {
  const options = (def.options as Schema[]).map((option) => ({ option, check: plainCheck(option) }))
  const discriminator = def.discriminator as string | undefined
  if (discriminator === undefined) return (v) => options.some(({ check }) => check(v))
  const byValue = new Map<unknown, PlainCheck>()
  for (const { option, check } of options)
    for (const value of option._zod.propValues?.[discriminator] ?? []) byValue.set(value, check)
  return (v) => isRecord(v) && (byValue.get(v[discriminator])?.(v) ?? false)
}

const array = (def: Def): PlainCheck => {
  const element = plainCheck(def.element as Schema)
  const min = lowerBound(def)
  if (min === undefined || (min !== null && !min.inclusive)) return askTheSchema
  const least = min?.min ?? 0
  return (v) => {
    if (!Array.isArray(v) || v.length < least) return false
    for (let i = 0; i < v.length; i++) if (!element(v[i])) return false
    return true
  }
}

const string = (def: Def): PlainCheck => {
  const min = lowerBound(def)
  if (def.format !== undefined || min === undefined || (min !== null && !min.inclusive)) return askTheSchema
  const least = min?.min ?? 0
  return least === 0 ? (v) => typeof v === 'string' : (v) => typeof v === 'string' && v.length >= least
}

const number = (def: Def): PlainCheck => {
  const bound = atLeast(def)
  if (bound === undefined || (def.format !== undefined && def.format !== 'safeint')) return askTheSchema
  const min = lowerBound(def)
  if (def.format === 'safeint') {
    if (min === null) return Number.isSafeInteger as PlainCheck
    const least = (min as { min: number }).min
    if ((min as { inclusive: boolean }).inclusive)
      return (v) => Number.isSafeInteger(v) && (v as number) >= least
    return (v) => Number.isSafeInteger(v) && (v as number) > least
  }
  return bound === null ? (Number.isFinite as PlainCheck) : (v) => Number.isFinite(v) && bound(v as number)
}

const readers: Readonly<Record<string, (def: Def) => PlainCheck>> = {
  object: strictObject,
  union,
  array,
  string,
  number,
  boolean: () => (v) => typeof v === 'boolean',
  literal: (def) => {
    const values = def.values as readonly unknown[]
    const only = values[0]
    return values.length === 1 ? (v) => v === only : (v) => values.includes(v)
  },
  enum: (def) => {
    const values = new Set(Object.values(def.entries as Rec))
    return (v) => values.has(v)
  },
  unknown: () => anything,
  optional: (def) => plainCheck(def.innerType as Schema),
  pipe: (def) => {
    const [first, then] = [plainCheck(def.in as Schema), plainCheck(def.out as Schema)]
    return (v) => first(v) && then(v)
  },
  custom: (def) => {
    const fn = def.fn as (v: unknown) => unknown
    return (v) => fn(v) === true
  },
}

const made = new WeakMap<Schema, PlainCheck>()
const making = new Set<Schema>()

/**
 * The fast check of `schema`, read from its definition (zod/mini and classic zod alike): objects
 * without unknown keys, unions, arrays, strings, numbers, literals and enums with their bounds.
 * Anything else, and any refinement, is left to the schema.
 */
export const plainCheck = (schema: Schema): PlainCheck => {
  const known = made.get(schema) ?? byHand.get(schema)
  if (known !== undefined) return known
  // A schema met again while its own check is being made (a recursive one) reads the finished one.
  if (making.has(schema)) return (v) => (made.get(schema) ?? askTheSchema)(v)
  making.add(schema)
  const def = defOf(schema)
  const reader = readers[def.type]
  const refined = !['object', 'array', 'string', 'number'].includes(def.type) && (def.checks?.length ?? 0) > 0
  const check = reader === undefined || refined ? askTheSchema : reader(def)
  making.delete(schema)
  made.set(schema, check)
  return check
}
