import { readSync } from 'node:fs'
import type { SessionEvent } from '../contracts/events.js'
import { deepFreezeNewParts } from './deepFreezeNewParts.js'
import { checkEvent } from './sessionEventSchema.js'
import { SessionLogError, storeError } from './storeErrors.js'

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

/** Bytes read at a time: the file is never one string, so its size is not bounded by one. */
const CHUNK = 1 << 20

/**
 * Reads and checks the JSON Lines file open at `fd`, synchronously, one line at a time: lines are
 * split on the byte 0x0A (which never occurs inside a multi-byte UTF-8 character) and each is
 * decoded on its own. Every line must pass `check`; a corrupt line throws `SessionLogError`
 * naming `file` and the line. Only the last line may be torn (no trailing newline and not JSON: a
 * write cut short): it is reported in `warnings` and left out. A last line that is complete JSON
 * but fails `check` is an error like any other line. What the file system refuses is thrown as
 * `readFailed(error)` makes it.
 */
export const readJsonLines = <T>(
  file: string,
  fd: number,
  check: LineCheck<T>,
  readFailed: (error: unknown) => Error,
): LinesContents<T> => {
  const values: T[] = []
  const warnings: string[] = []
  /** The pieces of the line being read (it may span chunks). */
  let pieces: Buffer[] = []
  let lineStart = 0
  let line = 0
  let position = 0

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

  for (;;) {
    const chunk = Buffer.allocUnsafe(CHUNK)
    let read: number
    try {
      read = readSync(fd, chunk, 0, CHUNK, position)
    } catch (error) {
      throw readFailed(error)
    }
    if (read === 0) break
    position += read
    const bytes = chunk.subarray(0, read)
    let from = 0
    // The end of a line begun in an earlier chunk: decoded from its bytes, which may be many.
    if (pieces.length > 0) {
      const nl = bytes.indexOf(0x0a)
      if (nl === -1) {
        pieces.push(bytes)
        continue
      }
      pieces.push(bytes.subarray(0, nl))
      const lineBytes = join(pieces)
      pieces = []
      accept(lineBytes, true)
      lineStart += lineBytes.length + 1
      from = nl + 1
    }
    // The whole lines within this chunk, decoded as one string and split on '\n': one decode per
    // chunk instead of one per line. The byte 0x0A never occurs inside a multi-byte character,
    // so the text splits where the bytes do.
    const last = bytes.lastIndexOf(0x0a)
    if (last >= from) {
      const block = bytes.subarray(from, last)
      const text = block.toString('utf8')
      let start = 0
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
        accept(text.slice(start, nl), true)
        start = nl + 1
      }
      accept(text.slice(start), true)
      lineStart += block.length + 1
      from = last + 1
    }
    if (from < read) pieces.push(bytes.subarray(from))
  }
  if (pieces.length === 0) return { values, validBytes: lineStart, missingNewline: false, warnings }
  const last = join(pieces)
  if (!accept(last, false)) return { values, validBytes: lineStart, missingNewline: false, warnings }
  return { values, validBytes: lineStart + last.length, missingNewline: true, warnings }
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

const join = (pieces: readonly Buffer[]): Buffer =>
  pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces as Buffer[])

type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  /** `torn`: the line is not JSON at all, as a write cut short leaves it. */
  | { readonly ok: false; readonly torn: boolean; readonly problem: string }

const parseLine = <T>(bytes: Buffer | string, index: number, check: LineCheck<T>): Parsed<T> => {
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
