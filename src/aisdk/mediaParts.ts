import type { LanguageModelV3FilePart, LanguageModelV3ToolResultOutput } from '@ai-sdk/provider'
import type { ContentBlock, FileBlock, ImageBlock } from '../contracts/messages.js'
import { dataUrlParts } from '../messages/mediaBlocks.js'

/** The provider interface the model implements: the two shape media differently. */
export type PromptVersion = 'v3' | 'v4'

type MediaBlock = ImageBlock | FileBlock

// Version 4's media parts, written here: the devDependencies install `@ai-sdk/provider` 3 (4 declares
// Node 22, and the project runs on Node 20); `npm run test:ai-sdk-7` runs them against version 4.
type V4Data = { readonly type: 'data'; readonly data: string } | { readonly type: 'url'; readonly url: URL }
type V4FilePart = { type: 'file'; mediaType: string; data: V4Data; filename?: string }
type Where = { readonly data: string } | { readonly url: URL }

/**
 * Where a block's bytes are, as providers take them: base64 `data` (also the payload of a base64
 * `data:` URL, which providers would otherwise have to download) or a `URL`.
 */
const whereOf = (block: MediaBlock): Where => {
  if (block.data !== undefined) return { data: block.data }
  const data = dataUrlParts(block.url)
  return data?.base64 ? { data: data.payload } : { url: new URL(block.url) }
}

const named = (block: MediaBlock) =>
  block.type === 'file' && block.filename !== undefined ? { filename: block.filename } : {}

/**
 * An image or file of a user message as a prompt's `file` part (R86): an image is a file whose
 * media type is `image/…`. Version 4 tags the data (`{type: 'data'}` or `{type: 'url'}`); version 3
 * takes the base64 string or the `URL` as it is.
 */
export const filePart = (block: MediaBlock, version: PromptVersion): LanguageModelV3FilePart => {
  const where = whereOf(block)
  if (version === 'v3')
    return {
      type: 'file',
      mediaType: block.mediaType,
      data: 'data' in where ? where.data : where.url,
      ...named(block),
    }
  const part: V4FilePart = { type: 'file', mediaType: block.mediaType, data: v4Data(where), ...named(block) }
  // The prompt's type is version 3's; a version 4 model reads its own shape.
  return part as unknown as LanguageModelV3FilePart
}

const v4Data = (where: Where): V4Data =>
  'data' in where ? { type: 'data', data: where.data } : { type: 'url', url: where.url }

type V3ContentValue = Extract<LanguageModelV3ToolResultOutput, { type: 'content' }>['value'][number]
type V4ContentValue = { type: 'text'; text: string } | V4FilePart

const v3Value = (block: MediaBlock): V3ContentValue => {
  const where = whereOf(block)
  if (block.type === 'image')
    return 'data' in where
      ? { type: 'image-data', data: where.data, mediaType: block.mediaType }
      : { type: 'image-url', url: where.url.href }
  return 'data' in where
    ? { type: 'file-data', data: where.data, mediaType: block.mediaType, ...named(block) }
    : { type: 'file-url', url: where.url.href }
}

/**
 * A tool result that holds an image or file, as `{type: 'content'}` output: text parts, and media
 * parts in the version's shape (version 3: `image-data`, `image-url`, `file-data`, `file-url`;
 * version 4: `file`). Other blocks go as their JSON text, as in a text result.
 */
export const contentOutput = (
  content: readonly ContentBlock[],
  version: PromptVersion,
): LanguageModelV3ToolResultOutput => {
  const value = content.map((block): V4ContentValue | V3ContentValue => {
    if (block.type === 'text') return { type: 'text', text: block.text }
    if (block.type !== 'image' && block.type !== 'file') return { type: 'text', text: JSON.stringify(block) }
    if (version === 'v3') return v3Value(block)
    return { type: 'file', mediaType: block.mediaType, data: v4Data(whereOf(block)), ...named(block) }
  })
  // The output's type is version 3's; a version 4 model reads its own parts.
  return { type: 'content', value: value as V3ContentValue[] }
}
