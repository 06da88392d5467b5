/**
 * `steerable/ai-sdk`: a model adapter for the language models of AI SDK provider packages
 * (`@ai-sdk/anthropic`, `@ai-sdk/google` …), of provider interface 3 (ai 6) or 4 (ai 7). Its
 * declarations import nothing of `@ai-sdk/provider` (an optional peer dependency): the types are
 * our own, so they type-check with either (scripts/checkAiSdkTypes.ts).
 */
export { ModelRequestError } from './adapterKit/ModelRequestError.js'
export { fromLanguageModel } from './aisdk/fromLanguageModel.js'
export type { LanguageModelCallSettings } from './aisdk/languageModel.js'
export type { FromLanguageModelOptions, LanguageModel } from './aisdk/options.js'
