import type { ToolSpec } from '../contracts/model.js'
import type { ChatTool } from './wire.js'

/**
 * Tool specs as Chat Completions function tools. The top-level `$schema` that `z.toJSONSchema`
 * adds is dropped: the model gains nothing from it and some compatible servers refuse it.
 */
export const toChatTools = (tools: readonly ToolSpec[]): ChatTool[] =>
  tools.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: withoutSchemaKey(tool.parameters),
    },
  }))

const withoutSchemaKey = (parameters: unknown): unknown => {
  if (typeof parameters !== 'object' || parameters === null || !('$schema' in parameters)) return parameters
  const { $schema: _, ...rest } = parameters as Record<string, unknown>
  return rest
}
