/**
 * The checks of image and file blocks (R86) that a JSON shape cannot say: the media type, the
 * base64 of `data`, the scheme of `url`, and the size of the bytes. Plain string work, so the
 * browser build needs no Node built-in (no `Buffer`).
 */
import type { InputIssue } from '../contracts/errors.js'
import type { ContentBlock, FileBlock, ImageBlock } from '../contracts/messages.js'
import type { Path } from './snapshot.js'

/** The default of the agent option `maxBlockBytes`: 20 MiB, about what hosted models take. */
export const DEFAULT_MAX_BLOCK_BYTES = 20 * 1024 * 1024

export type MediaBlock = ImageBlock | FileBlock

/** `type/subtype` as RFC 6838 names them, without parameters. */
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i
/** Standard base64, padded; the length is checked apart (a pattern of groups of 4 overflows V8's stack on big inputs). */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/
/** `data:[<media type>][;base64],<payload>`: the header and where the payload starts. */
const DATA_URL = /^data:([^,]*),/i

export const isBase64 = (text: string): boolean => text.length % 4 === 0 && BASE64.test(text)

/** How many bytes standard base64 decodes to, without decoding it. */
export const base64Bytes = (text: string): number => {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0
  return (text.length / 4) * 3 - padding
}

/** A `data:` URL's parts, when it is one. */
export const dataUrlParts = (
  url: string,
): { readonly base64: boolean; readonly mediaType: string; readonly payload: string } | undefined => {
  const head = DATA_URL.exec(url)
  if (!head) return undefined
  const header = head[1] ?? ''
  const base64 = /;base64$/i.test(header)
  return {
    base64,
    mediaType: (base64 ? header.slice(0, -7) : header).split(';')[0] ?? '',
    payload: url.slice(head[0].length),
  }
}

/** What is wrong with an image's or file's fields, each issue at its key under `path`. */
export const mediaBlockIssues = (block: MediaBlock, path: Path): InputIssue[] => {
  const issues: InputIssue[] = []
  const at = (key: string, message: string) => issues.push({ path: [...path, key], message })
  if (!MEDIA_TYPE.test(block.mediaType))
    at('mediaType', `expected a media type "type/subtype", such as ${example(block)}`)
  else if (block.type === 'image' && !/^image\//i.test(block.mediaType))
    at(
      'mediaType',
      'expected an image media type "image/…", such as "image/png" (other media go in a file block)',
    )
  if ((block.data === undefined) === (block.url === undefined))
    at(block.data === undefined ? 'data' : 'url', 'give exactly one of data (base64) and url')
  else if (block.data !== undefined) {
    if (block.data === '') at('data', 'must not be empty')
    else if (!isBase64(block.data))
      at(
        'data',
        'expected standard base64 (A–Z, a–z, 0–9, +, /, padded with =; no data: prefix, no line breaks)',
      )
  } else if (block.url !== undefined) {
    const issue = urlIssue(block.url)
    if (issue) at('url', issue)
  }
  return issues
}

const example = (block: MediaBlock): string => (block.type === 'image' ? '"image/png"' : '"application/pdf"')

const urlIssue = (url: string): string | undefined => {
  const data = dataUrlParts(url)
  if (data)
    return data.base64 && !isBase64(data.payload) ? 'the base64 of this data: URL is not valid' : undefined
  if (!/^data:/i.test(url)) {
    let protocol: string | undefined
    try {
      protocol = new URL(url).protocol
    } catch {
      protocol = undefined
    }
    if (protocol === 'http:' || protocol === 'https:') return undefined
  }
  return 'expected an http(s) URL or a data: URL (for bytes you have, pass data: their base64)'
}

/**
 * How many bytes a block carries: the decoded size of `data` or of a `data:` URL's payload, the
 * length of any other URL; for a tool result, its blocks together. Text is not counted: the limit
 * is on media (R86).
 */
export const blockBytes = (block: ContentBlock): number => {
  if (block.type === 'tool-result') return block.content.reduce((n, b) => n + blockBytes(b), 0)
  if (block.type !== 'image' && block.type !== 'file') return 0
  if (block.data !== undefined) return base64Bytes(block.data)
  const data = dataUrlParts(block.url)
  if (!data) return block.url.length
  return data.base64 ? base64Bytes(data.payload) : data.payload.length
}

/** Each image or file block over `maxBytes`, at its path (nested in tool results too). */
export const oversizeIssues = (
  content: readonly ContentBlock[],
  maxBytes: number,
  path: Path,
): InputIssue[] =>
  content.flatMap((block, i): InputIssue[] => {
    if (block.type === 'tool-result') return oversizeIssues(block.content, maxBytes, [...path, i, 'content'])
    const bytes = blockBytes(block)
    return bytes > maxBytes
      ? [
          {
            path: [...path, i],
            message: `this ${block.type} is ${bytes} bytes, over maxBlockBytes (${maxBytes}): send a smaller one, a URL, or raise the agent option maxBlockBytes`,
          },
        ]
      : []
  })

/** A short mark for an image or file where only text is shown: `[image]`, `[file report.pdf]`. */
export const mediaLabel = (block: MediaBlock): string =>
  block.type === 'image'
    ? '[image]'
    : block.filename
      ? `[file ${block.filename}]`
      : `[file ${block.mediaType}]`
