import { z } from 'zod'
import type { InputIssue } from '../contracts/errors.js'
import type { ToolSpec } from '../contracts/model.js'
import type { StandardSchemaV1 } from '../contracts/standardSchema.js'
import type { ToolDefinition } from '../contracts/tools.js'
import { errorText } from '../messages/errorText.js'

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
 * release before 4.2, `z.toJSONSchema`. Throws when neither can give one.
 */
export const parametersJsonSchema = (schema: StandardSchemaV1): Record<string, unknown> => {
  const standard = schema['~standard']
  if (typeof standard.jsonSchema?.output === 'function')
    return standard.jsonSchema.output({ target: 'draft-2020-12' })
  if (standard.vendor === 'zod') return z.toJSONSchema(schema as unknown as z.ZodType)
  throw new TypeError(`a ${standard.vendor} schema that ${NO_JSON_SCHEMA}`)
}

const specs = new WeakMap<ToolDefinition<never>, ToolSpec>()

/** What the model sees of a tool: its name, description and parameters as JSON Schema (made once). */
// biome-ignore lint/suspicious/noExplicitAny: any agent's tools
export const toolSpecOf = (tool: ToolDefinition<any>): ToolSpec => {
  let spec = specs.get(tool)
  if (spec === undefined) {
    spec = Object.freeze({
      name: tool.name,
      description: tool.description,
      parameters: parametersJsonSchema(tool.parameters),
    })
    specs.set(tool, spec)
  }
  return spec
}

const isSourceLike = (entry: unknown): boolean =>
  typeof entry === 'object' && entry !== null && 'tools$' in entry

/**
 * `createAgent({tools})` checks: each a definition with a unique name and a usable schema, or a
 * tool source (`{tools$}`, R100) whose lists are checked when it emits them.
 */
export const checkTools = (tools: unknown): InputIssue[] => {
  if (!Array.isArray(tools))
    return [{ path: ['options', 'tools'], message: 'expected an array of tool definitions and tool sources' }]
  const issues: InputIssue[] = []
  const seen = new Set<string>()
  tools.forEach((tool: unknown, i) => {
    if (isSourceLike(tool)) {
      const tools$ = (tool as { tools$?: { subscribe?: unknown } }).tools$
      if (typeof tools$?.subscribe !== 'function')
        issues.push({
          path: ['options', 'tools', i, 'tools$'],
          message: 'expected an Observable of tool lists',
        })
      return
    }
    issues.push(...checkTool(tool, ['options', 'tools', i], seen))
  })
  return issues
}

/**
 * One tool definition's problems, under `at`: a name (not in `seen`, which it joins), a
 * description, a usable schema, `execute`.
 */
export const checkTool = (
  value: unknown,
  at: readonly (string | number)[],
  seen?: Set<string>,
): InputIssue[] => {
  const tool = value as Partial<ToolDefinition<never>> | undefined
  const issues: InputIssue[] = []
  const add = (key: string, message: string) => issues.push({ path: [...at, key], message })
  const name = typeof tool?.name === 'string' && tool.name !== '' ? tool.name : undefined
  if (name === undefined) add('name', 'expected a non-empty string')
  else if (seen?.has(name)) add('name', `duplicate tool name "${name}"`)
  else seen?.add(name)
  if (typeof tool?.description !== 'string') add('description', 'expected string')
  const called = name === undefined ? 'the tool' : `tool "${name}"`
  if (!isStandardSchema(tool?.parameters))
    add(
      'parameters',
      `expected a schema for the arguments of ${called}: a zod, valibot or ArkType schema, or any ` +
        "Standard Schema (an object with '~standard')",
    )
  else {
    try {
      parametersJsonSchema(tool.parameters)
    } catch (error) {
      add('parameters', `the schema of ${called}: ${errorText(error)}`)
    }
  }
  if (typeof tool?.execute !== 'function') add('execute', 'expected a function')
  const rule = tool?.needsApproval
  if (rule !== undefined && typeof rule !== 'boolean' && typeof rule !== 'function')
    add('needsApproval', 'expected true, false, or a function (args, ctx) => boolean')
  const limit = tool?.approvalTimeoutMs
  if (limit !== undefined && !isTimeout(limit))
    add('approvalTimeoutMs', 'expected a number of milliseconds > 0 (leave it out for no limit)')
  return issues
}

/** A limit in milliseconds: a number above 0 (`Infinity` waits forever). */
export const isTimeout = (value: unknown): boolean => typeof value === 'number' && value > 0
