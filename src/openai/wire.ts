/** The Chat Completions request, as the subset of the wire format this adapter sends. */

export type ChatToolCall = {
  readonly id: string
  readonly type: 'function'
  readonly function: { readonly name: string; readonly arguments: string }
}

/** A part of a user message's content: text, an image (R86) or a file as base64 data. */
export type ChatContentPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image_url'; readonly image_url: { readonly url: string } }
  | { readonly type: 'file'; readonly file: { readonly file_data: string; readonly filename: string } }

export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string | readonly ChatContentPart[] }
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
