import type { ToolDefinition } from '../contracts/tools.js'
import type { FieldRule, FieldRules } from './checkInput.js'
import { errorText } from './errorText.js'
import { optional, timeoutMs } from './fieldRules.js'
import { isStandardSchema, parametersJsonSchema } from './parametersJsonSchema.js'

/** A tool's `parameters`: a Standard Schema that can give the JSON Schema the model needs. */
const parameters =
  (called: string): FieldRule =>
  (schema) => {
    if (!isStandardSchema(schema))
      return (
        `expected a schema for the arguments of ${called}: a zod, valibot or ArkType schema, or any ` +
        "Standard Schema (an object with '~standard')"
      )
    try {
      parametersJsonSchema(schema)
      return undefined
    } catch (error) {
      return `the schema of ${called}: ${errorText(error)}`
    }
  }

const needsApproval: FieldRule = (rule) =>
  rule === undefined || typeof rule === 'boolean' || typeof rule === 'function'
    ? undefined
    : 'expected true, false, or a function (args, ctx) => boolean'

const toolRules = (called: string): FieldRules => ({
  description: (v) => (typeof v === 'string' ? undefined : 'expected string'),
  parameters: parameters(called),
  execute: (v) => (typeof v === 'function' ? undefined : 'expected a function'),
  needsApproval,
  approvalTimeoutMs: optional(timeoutMs('leave it out for no limit')),
})

/**
 * The `tools` option of `createAgent`: an array of definitions, each with a name no other has, a
 * description, a schema that gives a JSON Schema, an `execute` function, and a valid approval rule.
 */
export const checkTools: FieldRule = (tools, path, check) => {
  if (tools === undefined) return undefined
  if (!Array.isArray(tools)) return 'expected an array of tool definitions'
  const seen = new Set<string>()
  tools.forEach((tool: Partial<ToolDefinition<never>> | undefined, i) => {
    const at = [...path, i]
    const name = typeof tool?.name === 'string' && tool.name !== '' ? tool.name : undefined
    if (name === undefined) check.add([...at, 'name'], 'expected a non-empty string')
    else if (seen.has(name)) check.add([...at, 'name'], `duplicate tool name "${name}"`)
    else seen.add(name)
    check.fields(tool ?? {}, at, toolRules(name === undefined ? 'the tool' : `tool "${name}"`))
  })
  return undefined
}
