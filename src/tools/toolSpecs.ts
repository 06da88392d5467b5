import { z } from 'zod'
import type { InputIssue } from '../contracts/errors.js'
import type { ToolSpec } from '../contracts/model.js'
import type { ToolDefinition } from '../contracts/tools.js'

/** What the model sees of each tool: JSON Schema generated from its zod schema. */
export const toolSpecsOf = (tools: readonly ToolDefinition<never>[]): readonly ToolSpec[] =>
  Object.freeze(
    tools.map((tool) =>
      Object.freeze({
        name: tool.name,
        description: tool.description,
        parameters: z.toJSONSchema(tool.parameters),
      }),
    ),
  )

/** `createAgent({tools})` checks: each a definition with a unique name and a zod schema. */
export const checkTools = (tools: unknown): InputIssue[] => {
  if (!Array.isArray(tools))
    return [{ path: ['options', 'tools'], message: 'expected an array of tool definitions' }]
  const issues: InputIssue[] = []
  const seen = new Set<string>()
  tools.forEach((tool: Partial<ToolDefinition<never>>, i) => {
    const at = (key: string, message: string) => issues.push({ path: ['options', 'tools', i, key], message })
    if (typeof tool?.name !== 'string' || tool.name === '') at('name', 'expected a non-empty string')
    else if (seen.has(tool.name)) at('name', `duplicate tool name "${tool.name}"`)
    else seen.add(tool.name)
    if (typeof tool?.description !== 'string') at('description', 'expected string')
    if (!(tool?.parameters instanceof z.ZodType)) at('parameters', 'expected a zod schema')
    else {
      try {
        z.toJSONSchema(tool.parameters)
      } catch (error) {
        at('parameters', `cannot be shown to the model as JSON Schema: ${(error as Error).message}`)
      }
    }
    if (typeof tool?.execute !== 'function') at('execute', 'expected a function')
  })
  return issues
}
