/**
 * Answers in the Anthropic Messages streaming format, for the end-to-end tests of
 * `steerable/ai-sdk` with the real `@ai-sdk/anthropic` against a local server (`serve` from
 * `openaiServer.ts` records the requests): server-sent events `message_start`,
 * `content_block_start` / `_delta` / `_stop` per block (text, thinking, or tool_use with its input
 * in `input_json_delta` pieces), `message_delta` with the stop reason and usage, `message_stop`.
 */
import type { ServerResponse } from 'node:http'
import type { Handler } from './openaiServer.js'

export type Block =
  | { readonly type: 'text'; readonly pieces: readonly string[] }
  | { readonly type: 'thinking'; readonly pieces: readonly string[] }
  | {
      readonly type: 'tool_use'
      readonly id: string
      readonly name: string
      readonly pieces: readonly string[]
    }

export const textBlock = (...pieces: string[]): Block => ({ type: 'text', pieces })
export const toolUse = (id: string, name: string, ...pieces: string[]): Block => ({
  type: 'tool_use',
  id,
  name,
  pieces,
})

/** One server-sent event, named by its type as Anthropic sends them. */
export const anthropicEvent = (data: { readonly type: string; readonly [key: string]: unknown }) =>
  `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`

export const messageStart = (inputTokens = 10) =>
  anthropicEvent({
    type: 'message_start',
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: inputTokens, output_tokens: 1 },
    },
  })

/** The events of one content block at `index`. */
export const blockEvents = (block: Block, index: number): string[] => {
  const start =
    block.type === 'tool_use'
      ? { type: 'tool_use', id: block.id, name: block.name, input: {} }
      : block.type === 'text'
        ? { type: 'text', text: '' }
        : { type: 'thinking', thinking: '' }
  const delta = (piece: string) =>
    block.type === 'tool_use'
      ? { type: 'input_json_delta', partial_json: piece }
      : block.type === 'text'
        ? { type: 'text_delta', text: piece }
        : { type: 'thinking_delta', thinking: piece }
  return [
    anthropicEvent({ type: 'content_block_start', index, content_block: start }),
    ...block.pieces.map((piece) =>
      anthropicEvent({ type: 'content_block_delta', index, delta: delta(piece) }),
    ),
    anthropicEvent({ type: 'content_block_stop', index }),
  ]
}

export const messageEnd = (stopReason: string, outputTokens = 5) => [
  anthropicEvent({
    type: 'message_delta',
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: outputTokens },
  }),
  anthropicEvent({ type: 'message_stop' }),
]

export const anthropicHead = (res: ServerResponse) =>
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })

/** A whole message: these blocks, then the stop reason (`end_turn`, `tool_use`, `max_tokens` …). */
export const message =
  (stopReason: string, ...blocks: Block[]): Handler =>
  (res) => {
    anthropicHead(res)
    res.write(messageStart())
    blocks.forEach((block, index) => {
      for (const event of blockEvents(block, index)) res.write(event)
    })
    for (const event of messageEnd(stopReason)) res.write(event)
    res.end()
  }
