/**
 * An AI SDK tool as `fromAiSdkTools` reads it: what `tool({...})` from `ai` returns, of ai 6 or 7.
 * Written here instead of imported from `ai`, for the reason of languageModel.ts: the two releases
 * `npm i ai` installs (on Node 20 and on Node 22) type their tools differently (ai 7 adds a tool
 * context, a description function and more kinds of tool), and steerable's declarations must
 * compile against either (R87). Each function is typed to take `never`, so a tool of any input
 * type, of either release, fits.
 */
export type AiSdkTool = {
  /** `'function'` (or none) and `'dynamic'` run here; `'provider'` tools are refused. */
  readonly type?: 'function' | 'dynamic' | 'provider' | undefined
  /** A string; in ai 7 also a function of `{context}`, called once by `fromAiSdkTools`. */
  readonly description?: string | ((options: never) => string) | undefined
  /**
   * A zod schema, any Standard Schema (valibot, ArkType …), or an AI SDK schema: `jsonSchema()`,
   * `zodSchema()`, `lazySchema()` from `ai`.
   */
  readonly inputSchema: object
  /** `(input, {toolCallId, abortSignal, messages, context})`: a value, a Promise, or an AsyncIterable. */
  readonly execute?: ((input: never, options: never) => unknown) | undefined
  /** `true`, or `(input, {toolCallId, messages, context}) => boolean | PromiseLike<boolean>`. */
  readonly needsApproval?:
    | boolean
    | ((input: never, options: never) => boolean | PromiseLike<boolean>)
    | undefined
  /** `({toolCallId, input, output}) => ToolResultOutput`: what the model is told of the output. */
  readonly toModelOutput?: ((options: never) => unknown) | undefined
}

/** Tools by name, as the AI SDK's `tools` option takes them: `{ weather: tool({...}) }`. */
export type AiSdkToolSet = { readonly [name: string]: AiSdkTool }

export type FromAiSdkToolsOptions = {
  /**
   * The tool context: passed to every `execute`, `needsApproval` and `description` function as
   * `context` (ai 7) and `experimental_context` (ai 6). Default `{}`.
   */
  readonly context?: unknown
}
