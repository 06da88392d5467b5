import * as z from 'zod/mini'
import type { StandardSchemaV1 } from '../contracts/standardSchema.js'

/** Whether `value` is a Standard Schema, by its shape: never `instanceof` (copies differ). */
export const isStandardSchema = (value: unknown): value is StandardSchemaV1 => {
  if (typeof value !== 'object' && typeof value !== 'function') return false
  const standard = (value as { '~standard'?: { version?: unknown; validate?: unknown } } | null)?.[
    '~standard'
  ]
  return standard?.version === 1 && typeof standard.validate === 'function'
}

const NO_JSON_SCHEMA =
  'cannot give the JSON Schema the model needs: use a schema library that implements Standard JSON ' +
  "Schema (zod 4.2 or later, ArkType 2.1.28 or later, or valibot's toStandardJsonSchema() from " +
  '@valibot/to-json-schema)'

/**
 * The JSON Schema of a tool's parameters, as the model sees them: what the schema's own Standard
 * JSON Schema support gives (draft 2020-12, the output side, as `z.toJSONSchema` gives by
 * default: a zod object then says `additionalProperties: false`), else, for a zod 4 schema of a
 * release before 4.2, `z.toJSONSchema`. Throws when neither can give one: `createAgent` checks
 * each tool's schema with it, and tool specs are made with it.
 */
export const parametersJsonSchema = (schema: StandardSchemaV1): Record<string, unknown> => {
  const standard = schema['~standard']
  if (typeof standard.jsonSchema?.output === 'function')
    return standard.jsonSchema.output({ target: 'draft-2020-12' })
  if (standard.vendor === 'zod') return z.toJSONSchema(schema as unknown as z.core.$ZodType)
  throw new TypeError(`a ${standard.vendor} schema that ${NO_JSON_SCHEMA}`)
}
