import type { ModelRequest } from '../contracts/model.js'
import type { OpenAIModelOptions } from './options.js'
import { toChatMessages } from './toChatMessages.js'
import { toChatTools } from './toChatTools.js'
import type { ChatRequestBody } from './wire.js'

/**
 * The JSON body of one streaming Chat Completions request. `stream_options.include_usage` asks for
 * the final usage chunk. `tools` is left out when there are none: some servers refuse `[]`.
 * `extraBody` goes last so that it can add provider options and override any default.
 */
export const chatRequestBody = (options: OpenAIModelOptions, request: ModelRequest): ChatRequestBody => ({
  model: options.model,
  stream: true,
  stream_options: { include_usage: true },
  messages: toChatMessages(request.system, request.messages),
  ...(request.tools.length > 0 ? { tools: toChatTools(request.tools) } : {}),
  ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
  ...(options.maxTokens === undefined ? {} : { max_tokens: options.maxTokens }),
  ...options.extraBody,
})
