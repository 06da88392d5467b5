/**
 * `steerable/ai-sdk`: a model adapter for the language models of AI SDK provider packages
 * (`@ai-sdk/anthropic`, `@ai-sdk/google` …), of provider interface 3 (ai 6) or 4 (ai 7), and AI SDK
 * tools (`tool()` from `ai`) as steerable tools. Its declarations import nothing of
 * `@ai-sdk/provider` (an optional peer dependency) or `ai`: the types are our own, so they
 * type-check with either release (scripts/checkAiSdkTypes.ts).
 */
export { ModelRequestError } from './adapterKit/ModelRequestError.js'
export type { AiSdkTool, AiSdkToolSet, FromAiSdkToolsOptions } from './aisdk/aiSdkTool.js'
export { fromAiSdkTools } from './aisdk/fromAiSdkTools.js'
export { fromLanguageModel } from './aisdk/fromLanguageModel.js'
export type { LanguageModelCallSettings } from './aisdk/languageModel.js'
export type { FromLanguageModelOptions, LanguageModel } from './aisdk/options.js'
