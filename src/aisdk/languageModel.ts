/**
 * The types `steerable/ai-sdk` shows its users, written here instead of imported from
 * `@ai-sdk/provider`: `npm i ai` installs ai 6 (`@ai-sdk/provider` 3, the V3 interface only) on
 * Node 20 and ai 7 (`@ai-sdk/provider` 4, V4) on Node 22 and later, and a declaration that names
 * `LanguageModelV4` does not compile against the first, nor one that names `LanguageModelV3`
 * against a later 4.x that drops it. These are the parts both versions share that the adapter
 * uses; a model of either version fits them.
 */

/** A JSON value, as `providerOptions` holds (the AI SDK's `JSONValue`, of version 3 or 4). */
export type JsonValue =
  | null
  | string
  | number
  | boolean
  | { readonly [key: string]: JsonValue | undefined }
  | readonly JsonValue[]

/**
 * A language model of an AI SDK provider package (`anthropic('claude-…')`, `google('gemini-…')`,
 * `openai('gpt-…')` …): the provider interface of version 4 (ai 7) or 3 (ai 6), as far as the
 * adapter reads it. Only `doStream` is called, with options the adapter builds.
 */
export type LanguageModel = {
  readonly specificationVersion: 'v3' | 'v4'
  readonly provider: string
  readonly modelId: string
  // `never`: any provider's parameter type fits; the adapter builds the call in the shape of
  // `specificationVersion` and types it there.
  doStream(options: never): PromiseLike<{ readonly stream: ReadableStream<unknown> }>
}

/**
 * The call settings of `LanguageModelV4CallOptions` and `V3` that an app may set, passed to every
 * `doStream`; the prompt, the tools and the abort signal come from each request.
 */
export type LanguageModelCallSettings = {
  readonly maxOutputTokens?: number
  readonly temperature?: number
  readonly stopSequences?: string[]
  readonly topP?: number
  readonly topK?: number
  readonly presencePenalty?: number
  readonly frequencyPenalty?: number
  readonly responseFormat?:
    | { readonly type: 'text' }
    | {
        readonly type: 'json'
        readonly schema?: object
        readonly name?: string
        readonly description?: string
      }
  readonly seed?: number
  readonly toolChoice?:
    | { readonly type: 'auto' }
    | { readonly type: 'none' }
    | { readonly type: 'required' }
    | { readonly type: 'tool'; readonly toolName: string }
  readonly includeRawChunks?: boolean
  readonly headers?: Readonly<Record<string, string | undefined>>
  /** Version 4 only; a model of version 3 has no such setting and ignores it. */
  readonly reasoning?: 'provider-default' | 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max'
  /** By provider name: `{anthropic: {thinking: {type: 'enabled', budgetTokens: 2048}}}`. */
  readonly providerOptions?: Readonly<Record<string, { readonly [key: string]: JsonValue | undefined }>>
}
