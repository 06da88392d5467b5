import { withoutSchemaKey } from '../adapterKit/withoutSchemaKey.js'
import type { ToolSpec } from '../contracts/model.js'
import type { ChatTool } from './wire.js'

/**
 * Tool specs as Chat Completions function tools, without the top-level `$schema`.
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
