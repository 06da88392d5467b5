import type { SessionEvent } from '../contracts/events.js'
import type { ContentBlock, Message } from '../contracts/messages.js'

/**
 * The surface projection of one durable event (R38): user and steering messages verbatim as
 * `user`, a non-empty `assistant/message` as `assistant`, a `tool/result` as `tool`; nothing
 * for the rest. Sources are never rendered into the content.
 */
export const projectEvent = (event: SessionEvent): Message | undefined => {
  switch (event.type) {
    case 'user/message':
    case 'steering/message':
      return { role: 'user', content: event.data.content }
    case 'assistant/message':
      return event.data.content.length > 0 ? { role: 'assistant', content: event.data.content } : undefined
    case 'tool/result':
      return { role: 'tool', content: [event.data.result] }
    default:
      return undefined
  }
}

/**
 * A message's size in characters: its text, reasoning, tool calls and tool results (R73); images
 * and files count nothing.
 */
export const messageChars = (message: Message): number => {
  let chars = 0
  for (const block of message.content) chars += blockChars(block)
  return chars
}

const blockChars = (block: ContentBlock): number => {
  switch (block.type) {
    case 'text':
    case 'reasoning':
      return block.text.length
    case 'tool-call':
      return block.name.length + block.arguments.length
    case 'tool-result':
      return block.content.reduce((n, inner) => n + blockChars(inner), 0)
    // Providers bill media by their own measures (an image by its tiles): no text estimate fits.
    case 'image':
    case 'file':
      return 0
  }
}
