import type { ToolSpec } from '../contracts/model.js'
import type { ToolDefinition } from '../contracts/tools.js'
import { parametersJsonSchema } from '../messages/parametersJsonSchema.js'

const specs = new WeakMap<ToolDefinition<never>, ToolSpec>()

/**
 * What the model sees of a tool: its name, description and parameters as JSON Schema, made once
 * per definition (a tool that stays in a source's next list is not measured again).
 * `createAgent` and the tool catalog have checked each definition with the same JSON Schema.
 */
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
