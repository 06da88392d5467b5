import type { SessionEvent } from '../events.js'
import { checkEvent } from './sessionEventSchema.js'
import { SessionLogError } from './storeErrors.js'

export type LogContents = {
  readonly events: SessionEvent[]
  /** Byte length of the valid part; a torn tail beyond it is cut off. */
  readonly validBytes: number
  /** Whether the valid part lacks its final newline (a complete last line written without it). */
  readonly missingNewline: boolean
  readonly warnings: string[]
}

/**
 * Parses a JSON Lines session log (R37). Every line must be a valid event in `seq` order; a
 * corrupt line throws `SessionLogError` naming the file and line. Only the last line may be torn
 * (no trailing newline and not a valid event): it is reported in `warnings` and left out.
 */
export const readLog = (file: string, text: string): LogContents => {
  const events: SessionEvent[] = []
  const warnings: string[] = []
  let offset = 0
  let line = 0
  while (offset < text.length) {
    const end = text.indexOf('\n', offset)
    const last = end === -1
    const raw = text.slice(offset, last ? text.length : end)
    line++
    const parsed = parseLine(raw, events.length)
    if (typeof parsed === 'string') {
      const problem = parsed
      if (last) {
        warnings.push(`${file}:${line}: cut off a torn last line (${problem})`)
        return {
          events,
          validBytes: Buffer.byteLength(text.slice(0, offset)),
          missingNewline: false,
          warnings,
        }
      }
      throw new SessionLogError(file, line, problem)
    }
    events.push(parsed.event)
    offset = last ? text.length : end + 1
    if (last) return { events, validBytes: Buffer.byteLength(text), missingNewline: true, warnings }
  }
  return { events, validBytes: Buffer.byteLength(text), missingNewline: false, warnings }
}

/** The event, or what is wrong with the line. */
const parseLine = (raw: string, index: number): { readonly event: SessionEvent } | string => {
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch (error) {
    return `invalid JSON (${(error as Error).message})`
  }
  const problem = checkEvent(value, index)
  return problem ? `invalid event: ${problem.message}` : { event: value as SessionEvent }
}
