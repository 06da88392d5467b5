/** The Chat Completions request, as the subset of the wire format this adapter sends. */

export type ChatToolCall = {
  readonly id: string
  readonly type: 'function'
  readonly function: { readonly name: string; readonly arguments: string }
}

export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | {
      readonly role: 'assistant'
      readonly content: string | null
      readonly tool_calls?: readonly ChatToolCall[]
    }
  | { readonly role: 'tool'; readonly tool_call_id: string; readonly content: string }

export type ChatTool = {
  readonly type: 'function'
  readonly function: { readonly name: string; readonly description: string; readonly parameters: unknown }
}

export type ChatRequestBody = {
  readonly model: string
  readonly stream: true
  readonly stream_options: { readonly include_usage: true }
  readonly messages: readonly ChatMessage[]
  readonly tools?: readonly ChatTool[]
  readonly temperature?: number
  readonly max_tokens?: number
  readonly [extra: string]: unknown
}
