import type { AgentEvent } from '../../contracts/events.js'
import { jsonSafe } from '../../messages/jsonSafe.js'
import type { EventsLostEvent } from './liveEvents.js'

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8')

/**
 * One live event as the JSON texts to publish, each at most `room` bytes (R56). Never throws,
 * whatever the event holds (errors become `{name, message}`, see `jsonSafe`).
 *
 * 1. An event that fits is one text.
 * 2. A stream delta that does not fit is split into deltas of the same turn, step and kind whose
 *    texts concatenate to the original: nothing is lost, a follower just sees more deltas.
 * 3. Any other event that does not fit is replaced by a `remote/events-lost` marker (reason
 *    `too-large`, with its type): the transcript holds what it was about.
 */
export const encodeLiveEvent = (event: AgentEvent, room: number): string[] => {
  const text = JSON.stringify(jsonSafe(event))
  if (bytes(text) <= room) return [text]
  if (event.type === 'agent/stream/delta') return splitDelta(event, room)
  const lost: EventsLostEvent = {
    type: 'remote/events-lost',
    reason: 'too-large',
    count: 1,
    eventType: String(event.type),
  }
  return [JSON.stringify(lost)]
}

const splitDelta = (event: Extract<AgentEvent, { type: 'agent/stream/delta' }>, room: number): string[] => {
  const safe = jsonSafe(event) as Record<string, unknown>
  const encode = (text: string) => JSON.stringify({ ...safe, text })
  const texts: string[] = []
  let rest = String(event.text)
  /** `n` moved off the middle of a surrogate pair. */
  const cut = (n: number): number => {
    if (n >= rest.length) return rest.length
    const code = rest.charCodeAt(n - 1)
    if (code < 0xd800 || code > 0xdbff) return n
    return n > 1 ? n - 1 : n + 1
  }
  while (rest.length > 0) {
    // Halve until the piece fits (escapes and multi-byte characters make bytes differ from
    // characters), then grow back in eighths, so a long delta is cut into few pieces.
    let size = rest.length
    while (size > 1 && bytes(encode(rest.slice(0, size))) > room) {
      const half = cut(Math.ceil(size / 2))
      if (half >= size) break
      size = half
    }
    const step = Math.max(1, Math.floor(size / 8))
    while (size < rest.length) {
      const next = cut(size + step)
      if (next <= size || bytes(encode(rest.slice(0, next))) > room) break
      size = next
    }
    texts.push(encode(rest.slice(0, size)))
    rest = rest.slice(size)
  }
  return texts
}
