import type * as z from 'zod/mini'

/** The parts of a zod 4 schema's definition that lead to an object's keys. */
type Def = {
  readonly type: string
  readonly shape?: Readonly<Record<string, z.core.$ZodType>>
  readonly innerType?: z.core.$ZodType
  readonly in?: z.core.$ZodType
  readonly element?: z.core.$ZodType
  readonly valueType?: z.core.$ZodType
  readonly options?: readonly z.core.$ZodType[]
  readonly discriminator?: string
  readonly getter?: () => z.core.$ZodType
  readonly values?: readonly unknown[]
}

const defOf = (schema: z.core.$ZodType | undefined): Def | undefined =>
  (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def

/** Wrappers whose keys are their inner schema's. */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional'])

/**
 * The keys the object schema at `path` of `schema` allows, for an unknown key's message: what the
 * caller may write there instead. `value` is what was parsed; it picks the member of a
 * discriminated union (a text block's keys, not an image's). `undefined` when the schema at `path`
 * is not an object zod can list the keys of (a custom check, an undiscriminated union).
 */
export const keysAt = (
  schema: z.core.$ZodType,
  path: readonly PropertyKey[],
  value: unknown,
): readonly string[] | undefined => {
  let at: z.core.$ZodType | undefined = unwrap(schema, value)
  let v = value
  for (const key of path) {
    const def = defOf(at)
    if (def === undefined) return undefined
    if (def.type === 'object') at = typeof key === 'string' ? def.shape?.[key] : undefined
    else if (def.type === 'array') at = typeof key === 'number' ? def.element : undefined
    else if (def.type === 'record') at = def.valueType
    else return undefined
    v = typeof v === 'object' && v !== null ? (v as Record<PropertyKey, unknown>)[key] : undefined
    at = unwrap(at, v)
  }
  const def = defOf(at)
  return def?.type === 'object' && def.shape ? Object.keys(def.shape) : undefined
}

/** `schema` without the wrappers around it, and a union narrowed to the member `value` is of. */
const unwrap = (schema: z.core.$ZodType | undefined, value: unknown): z.core.$ZodType | undefined => {
  let at = schema
  for (let depth = 0; depth < 16; depth++) {
    const def = defOf(at)
    if (def === undefined) return undefined
    if (WRAPPERS.has(def.type)) at = def.innerType
    else if (def.type === 'pipe') at = def.in
    else if (def.type === 'lazy') at = def.getter?.()
    else if (def.type === 'union') at = memberOf(def, value)
    else return at
  }
  return undefined
}

/** The member of a discriminated union whose discriminator literal is `value`'s. */
const memberOf = (def: Def, value: unknown): z.core.$ZodType | undefined => {
  const { discriminator, options } = def
  if (discriminator === undefined || options === undefined) return undefined
  if (typeof value !== 'object' || value === null) return undefined
  const tag = (value as Record<string, unknown>)[discriminator]
  return options.find((option) => {
    const literal = defOf(defOf(unwrap(option, undefined))?.shape?.[discriminator])
    return literal?.type === 'literal' && (literal.values ?? []).includes(tag)
  })
}
