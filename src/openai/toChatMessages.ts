import type { ContentBlock, Message } from '../contracts/messages.js'
import { mediaResultText, toChatParts } from './toChatParts.js'
import type { ChatMessage, ChatToolCall } from './wire.js'

const textOf = (content: readonly ContentBlock[], separator: string): string =>
  content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(separator)

/**
 * A tool result as the one string Chat Completions accepts: text blocks as they are, an image or
 * file as a line saying what it was (R86), any other block as its JSON, so nothing the tool
 * returned is silently lost.
 */
const resultText = (content: readonly ContentBlock[]): string =>
  content
    .map((block) =>
      block.type === 'text'
        ? block.text
        : block.type === 'image' || block.type === 'file'
          ? mediaResultText(block)
          : JSON.stringify(block),
    )
    .join('\n')

const hasMedia = (content: readonly ContentBlock[]): boolean =>
  content.some((block) => block.type === 'image' || block.type === 'file')

const toolCall = (block: ContentBlock): ChatToolCall[] =>
  block.type === 'tool-call'
    ? [{ id: block.id, type: 'function', function: { name: block.name, arguments: block.arguments } }]
    : []

const toChatMessage = (message: Message): ChatMessage[] => {
  switch (message.role) {
    // Separate user blocks are separate pieces of input: one per line. Reasoning is never sent back.
    // With an image or file, the content is a list of parts (R86); text alone stays one string.
    case 'user':
      return [
        {
          role: 'user',
          content: hasMedia(message.content) ? toChatParts(message.content) : textOf(message.content, '\n'),
        },
      ]
    case 'assistant': {
      const calls = message.content.flatMap(toolCall)
      // Assistant text blocks are pieces of one answer split by reasoning or calls: joined as is.
      const text = textOf(message.content, '')
      // `content: null` is only valid beside tool calls; an empty `tool_calls` array is refused.
      return calls.length > 0
        ? [{ role: 'assistant', content: text === '' ? null : text, tool_calls: calls }]
        : [{ role: 'assistant', content: text }]
    }
    case 'tool':
      return message.content.flatMap((block) =>
        block.type === 'tool-result'
          ? [{ role: 'tool' as const, tool_call_id: block.toolCallId, content: resultText(block.content) }]
          : [],
      )
  }
}

/** The conversation in Chat Completions form: the system prompt first, then each message mapped. */
export const toChatMessages = (system: string | undefined, messages: readonly Message[]): ChatMessage[] => [
  ...(system === undefined ? [] : [{ role: 'system' as const, content: system }]),
  ...messages.flatMap(toChatMessage),
]
