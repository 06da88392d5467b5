import { from, type Observable, of, takeLast } from 'rxjs'
import type { ContentBlock } from '../contracts/messages.js'
import type { ToolResult } from '../contracts/tools.js'

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  typeof (value as { [Symbol.asyncIterator]?: unknown } | null)?.[Symbol.asyncIterator] === 'function'

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as { then?: unknown } | null)?.then === 'function'

/**
 * What an AI SDK `execute` produced, as one value: a value as it is, a Promise's value, and of an
 * AsyncIterable (preliminary outputs, then the final one) the last, as the AI SDK takes it.
 */
export const outputOf = (result: unknown): Observable<unknown> => {
  if (isAsyncIterable(result)) return from(result).pipe(takeLast(1))
  if (isThenable(result)) return from(result)
  return of(result)
}

/**
 * An output without `toModelOutput`, as the AI SDK tells the model: a string as its text, any
 * other value as its JSON text. The JSON is made here, so that an output that happens to look like
 * steerable's `{content}` result is still the tool's own value; a value with no JSON text (a
 * cycle, a BigInt) goes on as it is, and steerable answers the model `INVALID_RESULT`.
 */
export const plainOutput = (output: unknown): unknown => {
  if (output === undefined || typeof output === 'string') return output
  try {
    const json = JSON.stringify(output)
    return json === undefined ? output : { content: json }
  } catch {
    return output
  }
}

type Part = { readonly type?: unknown; readonly [key: string]: unknown }

/** Base64 of raw bytes (ai 7 lets a part hold a `Uint8Array`), without Node's `Buffer`. */
const base64Of = (data: unknown): string | undefined => {
  if (typeof data === 'string') return data
  if (!(data instanceof Uint8Array)) return undefined
  let binary = ''
  for (const byte of data) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/** A media part of ai 6 (`image-data`, `file-data`, `media`) or ai 7 (`file` with tagged data). */
const mediaBlock = (part: Part): ContentBlock | undefined => {
  const tagged = part.type === 'file' ? (part.data as Part | undefined) : undefined
  const data = base64Of(tagged === undefined ? part.data : tagged.type === 'data' ? tagged.data : undefined)
  const mediaType = part.mediaType
  if (data === undefined || typeof mediaType !== 'string') return undefined
  if (part.type === 'image-data' || (part.type !== 'file-data' && mediaType.startsWith('image/')))
    return { type: 'image', mediaType, data }
  const filename = typeof part.filename === 'string' ? { filename: part.filename } : {}
  return { type: 'file', mediaType, data, ...filename }
}

/** One part of a `content` output; a part this adapter does not map goes as its JSON text. */
const contentBlock = (part: Part): ContentBlock => {
  if (part.type === 'text' && typeof part.text === 'string') return { type: 'text', text: part.text }
  return mediaBlock(part) ?? { type: 'text', text: JSON.stringify(part) }
}

/**
 * What `toModelOutput` returned (the AI SDK's `ToolResultOutput`) as steerable's result: `text`
 * and `json` as text, `error-text`, `error-json` and `execution-denied` as an error result, and
 * `content` as text, image and file blocks. Throws for anything else: the model is told that the
 * tool failed, with this message.
 */
export const modelOutputResult = (output: unknown): ToolResult => {
  const o = (output ?? {}) as Part
  switch (o.type) {
    case 'text':
      return { content: String(o.value) }
    case 'json':
      return { content: JSON.stringify(o.value) ?? 'null' }
    case 'error-text':
      return { content: String(o.value), isError: true }
    case 'error-json':
      return { content: JSON.stringify(o.value) ?? 'null', isError: true }
    case 'execution-denied':
      return { content: typeof o.reason === 'string' ? o.reason : 'The tool was not run.', isError: true }
    case 'content':
      if (Array.isArray(o.value)) return { content: (o.value as Part[]).map(contentBlock) }
  }
  throw new TypeError(
    `toModelOutput returned ${JSON.stringify(output) ?? String(output)}; expected a ToolResultOutput ` +
      "such as { type: 'text', value: '…' }",
  )
}
