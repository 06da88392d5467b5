import type { ToolSpec } from '../contracts/model.js'
import type { ToolDefinition } from '../contracts/tools.js'
import { parametersJsonSchema } from '../messages/parametersJsonSchema.js'

/**
 * What the model sees of each tool: its name, description and parameters as JSON Schema.
 * `createAgent` has checked each definition (`messages/checkTools.ts`) with the same JSON Schema.
 */
export const toolSpecsOf = (tools: readonly ToolDefinition<never>[]): readonly ToolSpec[] =>
  Object.freeze(
    tools.map((tool) =>
      Object.freeze({
        name: tool.name,
        description: tool.description,
        parameters: parametersJsonSchema(tool.parameters),
      }),
    ),
  )
