import { createParser } from 'eventsource-parser'
import type { BodyStart } from './readBodyStart.js'

/** How much of the start of a body is kept, to show what it was if it is no event stream. */
const startChars = 1024

const encoder = new TextEncoder()
const byteLength = (text: string): number => encoder.encode(text).length

export type EventStreamBody = {
  /** Decodes one chunk (`undefined` at the end of the body); the data of the events it completed. */
  readonly feed: (chunk: Uint8Array | undefined) => readonly string[]
  /** How the body started, when it ended without any event, comment or field of an event stream. */
  readonly notAStream: () => BodyStart | undefined
}

/**
 * A response body read as server-sent events (`eventsource-parser`), chunk by chunk: UTF-8
 * characters and events may be split anywhere across chunks. It remembers the first characters,
 * so that a body without a content-type that holds no event at all can be reported for what it is.
 */
export const eventStreamBody = (): EventStreamBody => {
  const decoder = new TextDecoder()
  let sawStream = false
  let start = ''
  let bytes = 0
  let batch: string[] = []
  const sign = () => {
    sawStream = true
  }
  const parser = createParser({
    onEvent: (event) => {
      sawStream = true
      batch.push(event.data)
    },
    onComment: sign,
    onRetry: sign,
    onId: sign,
  })
  return {
    feed: (chunk) => {
      bytes += chunk?.length ?? 0
      const text = chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode()
      if (start.length < startChars) start += text.slice(0, startChars - start.length)
      batch = []
      parser.feed(text)
      return batch
    },
    notAStream: () =>
      sawStream || start.trim() === ''
        ? undefined
        : { text: start, rest: { bytes: bytes - byteLength(start), exact: true } },
  }
}
