import { createParser } from 'eventsource-parser'
import { ModelRequestError } from '../adapterKit/ModelRequestError.js'
import type { BodyStart } from './readBodyStart.js'

/** The longest event (or unterminated line) read from a stream: 16 Mi characters. */
export const MAX_EVENT_CHARS = 16 * 1024 * 1024

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
  let overflow = false
  const parser = createParser({
    onEvent: (event) => {
      sawStream = true
      batch.push(event.data)
    },
    onComment: sign,
    onRetry: sign,
    // A line or an event that never ends must not grow the process without bound.
    maxBufferSize: MAX_EVENT_CHARS,
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') overflow = true
    },
  })
  return {
    feed: (chunk) => {
      bytes += chunk?.length ?? 0
      const text = chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode()
      if (start.length < startChars) start += text.slice(0, startChars - start.length)
      batch = []
      if (!overflow) parser.feed(text)
      if (overflow)
        throw new ModelRequestError(
          `openaiModel: one event of the answer is longer than ${MAX_EVENT_CHARS} characters; ` +
            'the stream was stopped (retrying may help if the server sent a broken stream)',
        )
      return batch
    },
    notAStream: () =>
      sawStream || start.trim() === ''
        ? undefined
        : { text: start, rest: { bytes: bytes - byteLength(start), exact: true } },
  }
}
