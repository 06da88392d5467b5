import type { LanguageModelCallSettings } from './languageModel.js'

export type { LanguageModel } from './languageModel.js'

export type FromLanguageModelOptions = {
  /**
   * Call settings passed to every `doStream`: `maxOutputTokens`, `temperature`, `topP`,
   * `stopSequences`, `seed`, `toolChoice`, `headers`, `providerOptions` (thinking budgets, cache
   * control …). The prompt, the tools and the abort signal come from each request.
   */
  readonly callOptions?: LanguageModelCallSettings
  /**
   * Strings that an error must never quote, beside the ones found by themselves: a key the app
   * passed to the provider itself (`createAnthropic({apiKey})`). The values of environment
   * variables named like credentials (`ANTHROPIC_API_KEY` …), where providers read their keys
   * from by default, and of credential headers in `callOptions.headers` are redacted anyway.
   */
  readonly secrets?: readonly string[]
  /**
   * How long the provider may take to start answering, in milliseconds, until `doStream` resolves
   * (provider packages resolve it once the response headers arrive); default 120 000, as in
   * `steerable/openai`.
   */
  readonly headersTimeoutMs?: number
  /**
   * How long the answer may then stay silent between two parts of the stream, in milliseconds;
   * default 120 000. A provider may read a long prompt or a model reason for a while before the
   * next part. Any part counts as life; a provider passes its server's keep-alive pings on as parts
   * only when asked (`providerOptions: { anthropic: { includePings: true } }`).
   */
  readonly idleTimeoutMs?: number
}
