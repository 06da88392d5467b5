import type { ContentBlock, FileBlock, ImageBlock } from '../contracts/messages.js'
import type { ChatContentPart } from './wire.js'

/** A block's bytes as one URL: its `url`, or its `data` as a base64 `data:` URL. */
const urlOf = (block: ImageBlock | FileBlock): string =>
  block.url ?? `data:${block.mediaType};base64,${block.data}`

/**
 * A file as Chat Completions takes it: bytes only, as a `data:` URL in `file_data`, with a name
 * (servers refuse `file_data` without one: the subtype stands in). A file at an http(s) URL has no
 * part of its own, so the model is told where it is in a text part.
 */
const filePart = (block: FileBlock): ChatContentPart => {
  const filename = block.filename ?? `file.${block.mediaType.split('/')[1] ?? 'bin'}`
  if (block.url !== undefined && !/^data:/i.test(block.url))
    return { type: 'text', text: `[file ${filename} (${block.mediaType}): ${block.url}]` }
  return { type: 'file', file: { file_data: urlOf(block), filename } }
}

/**
 * A user message's blocks as Chat Completions content parts (R86): text as text parts, images as
 * `image_url` parts (a URL, or the data as a `data:` URL), files as `file` parts. Other blocks are
 * left out, as they are from a text-only user message.
 */
export const toChatParts = (content: readonly ContentBlock[]): ChatContentPart[] =>
  content.flatMap((block): ChatContentPart[] => {
    switch (block.type) {
      case 'text':
        return [{ type: 'text', text: block.text }]
      case 'image':
        return [{ type: 'image_url', image_url: { url: urlOf(block) } }]
      case 'file':
        return [filePart(block)]
      default:
        return []
    }
  })

/**
 * An image or file in a tool result, as the text a tool message can hold: Chat Completions takes
 * no media there, so the model learns what the tool returned, and where when it is a URL, without
 * the bytes (which as text would be useless tokens).
 */
export const mediaResultText = (block: ImageBlock | FileBlock): string => {
  const what = block.type === 'image' ? 'image' : `file${block.filename ? ` ${block.filename}` : ''}`
  const where = block.url !== undefined && !/^data:/i.test(block.url) ? `: ${block.url}` : ''
  return `[${what} (${block.mediaType}) returned by the tool${where}; not shown: a tool message takes text only]`
}
