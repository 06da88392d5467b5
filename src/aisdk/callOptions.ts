import type { JSONSchema7, LanguageModelV3CallOptions, LanguageModelV3FunctionTool } from '@ai-sdk/provider'
import { withoutSchemaKey } from '../adapterKit/withoutSchemaKey.js'
import type { ModelRequest, ToolSpec } from '../contracts/model.js'
import type { PromptVersion } from './mediaParts.js'
import type { FromLanguageModelOptions } from './options.js'
import { toPrompt } from './toPrompt.js'

const toTool = (tool: ToolSpec): LanguageModelV3FunctionTool => ({
  type: 'function',
  name: tool.name,
  description: tool.description,
  inputSchema: withoutSchemaKey(tool.parameters) as JSONSchema7,
})

/**
 * The options of one `doStream` call, without the abort signal: the app's call settings, then the
 * request's prompt and its tools as JSON Schema function tools (none: no `tools` key).
 */
export const callOptionsOf = (
  request: ModelRequest,
  options: FromLanguageModelOptions,
  version: PromptVersion,
): Omit<LanguageModelV3CallOptions, 'abortSignal'> => ({
  // Our settings type is the part versions 3 and 4 share, with read-only JSON: a provider reads it.
  ...(options.callOptions as Omit<LanguageModelV3CallOptions, 'prompt' | 'abortSignal'> | undefined),
  prompt: toPrompt(request.system, request.messages, version),
  ...(request.tools.length > 0 ? { tools: request.tools.map(toTool) } : {}),
})
