import type { StandardSchemaResult, StandardSchemaV1 } from '../contracts/standardSchema.js'
import { errorText } from '../messages/errorText.js'
import { isStandardSchema } from '../messages/parametersJsonSchema.js'

/** The mark of the AI SDK's own schemas (`jsonSchema()`, `zodSchema()`), shared by ai 6 and 7. */
const SCHEMA_MARK = Symbol.for('vercel.ai.schema')

type AiSdkSchema = {
  readonly jsonSchema: unknown
  readonly validate?: (value: unknown) => unknown
}

type ValidationResult = { readonly success: boolean; readonly value?: unknown; readonly error?: unknown }

const isAiSdkSchema = (value: unknown): value is AiSdkSchema =>
  typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[SCHEMA_MARK] === true

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as { then?: unknown } | null)?.then === 'function'

const standardResult = (result: unknown): StandardSchemaResult<unknown> => {
  const r = result as ValidationResult | null
  if (r?.success === true) return { value: r.value }
  return { issues: [{ message: errorText(r?.error ?? 'the arguments do not fit the tool schema') }] }
}

/**
 * An AI SDK schema as a Standard Schema: its JSON Schema for both sides, and its `validate`
 * (none: every value passes, as in the AI SDK). Its JSON Schema is read once, now.
 */
const fromAiSdkSchema = (schema: AiSdkSchema): StandardSchemaV1 => {
  const json = schema.jsonSchema
  if (isThenable(json))
    throw new TypeError(
      'its JSON Schema comes as a Promise, and the model needs it when the agent is made: pass the JSON ' +
        'Schema itself to jsonSchema()',
    )
  if (typeof json !== 'object' || json === null)
    throw new TypeError(`its JSON Schema is ${json === null ? 'null' : typeof json}, not an object`)
  const jsonSchema = () => json as Record<string, unknown>
  const { validate } = schema
  return {
    '~standard': {
      version: 1,
      vendor: 'ai-sdk',
      validate: (value) => {
        if (validate === undefined) return { value }
        const result = validate.call(schema, value)
        return isThenable(result) ? Promise.resolve(result).then(standardResult) : standardResult(result)
      },
      jsonSchema: { input: jsonSchema, output: jsonSchema },
    },
  }
}

/**
 * A tool's `inputSchema` as steerable's `parameters`: a Standard Schema (zod, valibot, ArkType)
 * as it is; an AI SDK schema (`jsonSchema()`, `zodSchema()`, or the function `lazySchema()`
 * makes, called now) wrapped as one. Throws a `TypeError` that says what is wrong otherwise.
 */
export const parametersOf = (inputSchema: unknown): StandardSchemaV1 => {
  if (isStandardSchema(inputSchema)) return inputSchema
  const schema = typeof inputSchema === 'function' ? (inputSchema as () => unknown)() : inputSchema
  if (isAiSdkSchema(schema)) return fromAiSdkSchema(schema)
  throw new TypeError(
    "expected a zod schema, a Standard Schema, or an AI SDK schema (jsonSchema() from 'ai'), such as " +
      'z.object({ city: z.string() })',
  )
}
