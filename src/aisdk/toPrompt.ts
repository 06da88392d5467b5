import type {
  LanguageModelV3FilePart,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3TextPart,
  LanguageModelV3ToolCallPart,
} from '@ai-sdk/provider'
import type { ContentBlock, Message } from '../contracts/messages.js'
import { mediaLabel } from '../messages/mediaBlocks.js'
import { contentOutput, filePart, type PromptVersion } from './mediaParts.js'

/** A user message's text, images and files (R86), in order; other blocks are left out. */
const userParts = (content: readonly ContentBlock[], version: PromptVersion) =>
  content.flatMap((block): (LanguageModelV3TextPart | LanguageModelV3FilePart)[] => {
    if (block.type === 'text') return [{ type: 'text', text: block.text }]
    if (block.type === 'image' || block.type === 'file') return [filePart(block, version)]
    return []
  })

const hasMedia = (content: readonly ContentBlock[]): boolean =>
  content.some((block) => block.type === 'image' || block.type === 'file')

/**
 * A tool result as the one text a provider takes: text blocks as they are, an image or file as its
 * mark (`[image]`: an error result's text has no room for bytes), any other block as its JSON, so
 * nothing the tool returned is silently lost.
 */
const resultText = (content: readonly ContentBlock[]): string =>
  content
    .map((block) =>
      block.type === 'text'
        ? block.text
        : block.type === 'image' || block.type === 'file'
          ? mediaLabel(block)
          : JSON.stringify(block),
    )
    .join('\n')

/**
 * The arguments of a past call as the object providers send back. Arguments that were not JSON
 * (the tool answered `INVALID_ARGUMENTS`) go as `{}`: providers such as Anthropic refuse anything
 * but an object, and refusing the whole history would fail every later step of the session.
 */
const inputOf = (json: string): unknown => {
  try {
    return JSON.parse(json)
  } catch {
    return {}
  }
}

const toMessage = (
  message: Message,
  toolNames: ReadonlyMap<string, string>,
  version: PromptVersion,
): LanguageModelV3Message[] => {
  switch (message.role) {
    case 'user':
      return [{ role: 'user', content: userParts(message.content, version) }]
    case 'assistant':
      // Reasoning is not sent back: providers that replay it need their own signatures for it.
      return [
        {
          role: 'assistant',
          content: message.content.flatMap(
            (block): (LanguageModelV3TextPart | LanguageModelV3ToolCallPart)[] => {
              if (block.type === 'text') return [{ type: 'text' as const, text: block.text }]
              if (block.type !== 'tool-call') return []
              const input = block.arguments === '' ? {} : inputOf(block.arguments)
              return [{ type: 'tool-call' as const, toolCallId: block.id, toolName: block.name, input }]
            },
          ),
        },
      ]
    case 'tool':
      return [
        {
          role: 'tool',
          content: message.content.flatMap((block) =>
            block.type === 'tool-result'
              ? [
                  {
                    type: 'tool-result' as const,
                    toolCallId: block.toolCallId,
                    // Providers need the tool's name beside the result; our results name only the call.
                    toolName: toolNames.get(block.toolCallId) ?? '',
                    // With an image or file, the result goes as content parts (R86); an error stays text.
                    output:
                      !block.isError && hasMedia(block.content)
                        ? contentOutput(block.content, version)
                        : {
                            type: block.isError ? ('error-text' as const) : ('text' as const),
                            value: resultText(block.content),
                          },
                  },
                ]
              : [],
          ),
        },
      ]
  }
}

/**
 * The conversation as an AI SDK prompt: the system text first, then user text, images and files,
 * assistant text and tool calls, and tool results (as text, or error text for an `isError` result;
 * as content parts when they hold an image or file). The text and tool parts are the same in
 * versions 3 and 4 of the provider interface; the media parts differ, so `version` says which.
 */
export const toPrompt = (
  system: string | undefined,
  messages: readonly Message[],
  version: PromptVersion = 'v4',
): LanguageModelV3Prompt => {
  const toolNames = new Map<string, string>()
  for (const message of messages)
    for (const block of message.content) if (block.type === 'tool-call') toolNames.set(block.id, block.name)
  return [
    ...(system === undefined ? [] : [{ role: 'system' as const, content: system }]),
    ...messages.flatMap((message) => toMessage(message, toolNames, version)),
  ]
}
