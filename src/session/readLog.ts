import type { SessionEvent } from '../contracts/events.js'
import { deepFreezeNewParts } from './deepFreezeNewParts.js'
import { eachLine } from './eachLine.js'
import { checkEvent } from './sessionEventSchema.js'
import { storeError } from './storeError.js'
import { SessionLogError } from './storeErrors.js'

export type LinesContents<T> = {
  readonly values: T[]
  /** Byte length of the valid part; a torn tail beyond it is cut off. */
  readonly validBytes: number
  /** Whether the valid part lacks its final newline (a complete last line written without it). */
  readonly missingNewline: boolean
  readonly warnings: string[]
}

export type LogContents = LinesContents<SessionEvent>

/**
 * Checks one parsed line (the `index`th value, from 0): the value it stands for, or what is wrong
 * with it.
 */
export type LineCheck<T> = (
  value: unknown,
  index: number,
) => { readonly value: T } | { readonly problem: string }

/**
 * Reads and checks the JSON Lines file open at `fd`, synchronously, one line at a time
 * (`eachLine`: the file is never one string). Every line must pass `check`; a corrupt line throws
 * `SessionLogError` naming `file` and the line. Only the last line may be torn (no trailing
 * newline and not JSON: a write cut short): it is reported in `warnings` and left out. A last line
 * that is complete JSON but fails `check` is an error like any other line. What the file system
 * refuses is thrown as `readFailed(error)` makes it.
 */
export const readJsonLines = <T>(
  file: string,
  fd: number,
  check: LineCheck<T>,
  readFailed: (error: unknown) => Error,
): LinesContents<T> => {
  const values: T[] = []
  const warnings: string[] = []
  let line = 0

  /** Parses one line (its bytes, or its text); `false` when it is a torn last line (left out). */
  const accept = (bytes: Buffer | string, complete: boolean): boolean => {
    line++
    const parsed = parseLine(bytes, values.length, check)
    if (parsed.ok) {
      values.push(parsed.value)
      return true
    }
    if (!complete && parsed.torn) {
      warnings.push(`${file}:${line}: cut off a torn last line (${parsed.problem})`)
      return false
    }
    throw new SessionLogError(file, line, parsed.problem)
  }

  const { wholeBytes, tail } = eachLine(fd, (bytes) => accept(bytes, true), readFailed)
  if (tail === undefined || !accept(tail, false))
    return { values, validBytes: wholeBytes, missingNewline: false, warnings }
  return { values, validBytes: wholeBytes + tail.length, missingNewline: true, warnings }
}

/**
 * Reads and parses the JSON Lines session log open at `fd` (R37), as `readJsonLines` does: every
 * line must be a valid event in `seq` order.
 */
export const readLog = (file: string, fd: number): LogContents =>
  readJsonLines(
    file,
    fd,
    (value, index) => {
      const problem = checkEvent(value, index)
      // Frozen here, where the line is fresh: the agent's transcript, which must hold frozen
      // events (R38), then stops at the frozen event instead of walking it again.
      return problem
        ? { problem: `invalid event: ${problem.message}` }
        : { value: deepFreezeNewParts(value as SessionEvent) }
    },
    (error) => storeError(file, 'read the session log', error),
  )

export type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  /** `torn`: the line is not JSON at all, as a write cut short leaves it. */
  | { readonly ok: false; readonly torn: boolean; readonly problem: string }

/** One line parsed and checked; `readSessionFile` parses its lines the same way. */
export const parseLine = <T>(bytes: Buffer | string, index: number, check: LineCheck<T>): Parsed<T> => {
  let value: unknown
  try {
    value = JSON.parse(typeof bytes === 'string' ? bytes : bytes.toString('utf8'))
  } catch (error) {
    const tooLong = (error as NodeJS.ErrnoException).code === 'ERR_STRING_TOO_LONG'
    const why = tooLong
      ? `a line of ${bytes.length} bytes, longer than the longest string this runtime holds`
      : `invalid JSON (${(error as Error).message})`
    return { ok: false, torn: true, problem: why }
  }
  const checked = check(value, index)
  return 'problem' in checked
    ? { ok: false, torn: false, problem: checked.problem }
    : { ok: true, value: checked.value }
}
