/** `steerable/openai`: a model adapter for OpenAI-compatible Chat Completions streaming. */
export { ModelRequestError } from './openai/ModelRequestError.js'
export { type OpenAIModelOptions, openaiModel } from './openai/openaiModel.js'
