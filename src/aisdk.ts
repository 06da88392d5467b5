/**
 * `steerable/ai-sdk`: a model adapter for the language models of AI SDK provider packages
 * (`@ai-sdk/anthropic`, `@ai-sdk/google` …). `@ai-sdk/provider` is an optional peer dependency,
 * for the types only.
 */
export { ModelRequestError } from './adapterKit/ModelRequestError.js'
export { fromLanguageModel } from './aisdk/fromLanguageModel.js'
export type { FromLanguageModelOptions, LanguageModel } from './aisdk/options.js'
