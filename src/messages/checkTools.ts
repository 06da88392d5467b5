import type { InputIssue } from '../contracts/errors.js'
import type { ToolDefinition } from '../contracts/tools.js'
import { type FieldRule, type FieldRules, InputCheck } from './checkInput.js'
import { errorText } from './errorText.js'
import { optional, timeoutMs } from './fieldRules.js'
import { isStandardSchema, parametersJsonSchema } from './parametersJsonSchema.js'
import type { Path } from './snapshot.js'

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

const WRAP_AI_SDK =
  "AI SDK tools (tool() from 'ai') go through fromAiSdkTools({ name: tool({...}) }) from 'steerable/ai-sdk'"

/** An AI SDK `tool()`: it has the `inputSchema` that a steerable tool calls `parameters`. */
const isAiSdkTool = (tool: unknown): boolean =>
  typeof tool === 'object' && tool !== null && 'inputSchema' in tool && !('parameters' in tool)

const isSourceLike = (entry: unknown): boolean =>
  typeof entry === 'object' && entry !== null && 'tools$' in entry

/**
 * The `tools` option of `createAgent`: an array of definitions, each with a name no other has, a
 * description, a schema that gives a JSON Schema, an `execute` function, and a valid approval
 * rule; and tool sources (`{tools$}`, R100), whose lists are checked as they come
 * (`toolIssues`).
 */
export const checkTools: FieldRule = (tools, path, check) => {
  if (tools === undefined) return undefined
  if (!Array.isArray(tools))
    return `expected an array of tool definitions and tool sources${typeof tools === 'object' && tools !== null ? `; ${WRAP_AI_SDK}` : ''}`
  const seen = new Set<string>()
  tools.forEach((tool: unknown, i) => {
    if (!isSourceLike(tool)) checkTool(tool, [...path, i], check, seen)
    else if (typeof (tool as { tools$?: { subscribe?: unknown } }).tools$?.subscribe !== 'function')
      check.add([...path, i, 'tools$'], 'expected an Observable of tool lists (a tool source)')
  })
  return undefined
}

/** One definition, checked under `at`; its name joins `seen`, where it must not be yet. */
const checkTool = (value: unknown, at: Path, check: InputCheck, seen?: Set<string>): void => {
  if (isAiSdkTool(value))
    return check.add(at, `this is an AI SDK tool, which has no name of its own: ${WRAP_AI_SDK}`)
  const tool = value as Partial<ToolDefinition<never>> | undefined
  const name = typeof tool?.name === 'string' && tool.name !== '' ? tool.name : undefined
  if (name === undefined) check.add([...at, 'name'], 'expected a non-empty string')
  else if (seen?.has(name)) check.add([...at, 'name'], `duplicate tool name "${name}"`)
  else seen?.add(name)
  check.fields(tool ?? {}, at, toolRules(name === undefined ? 'the tool' : `tool "${name}"`))
}

/** The problems of one tool a source gave (R100): such a tool is dropped, and they are reported. */
export const toolIssues = (tool: unknown, at: Path): readonly InputIssue[] => {
  const check = new InputCheck('tools')
  checkTool(tool, at, check)
  return check.issues
}
