/** `steerable/openai`: a model adapter for OpenAI-compatible Chat Completions streaming. */
export { ModelRequestError } from './adapterKit/ModelRequestError.js'
export { openaiModel } from './openai/openaiModel.js'
export type { OpenAIModelOptions } from './openai/options.js'
