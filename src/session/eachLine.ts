import { readSync } from 'node:fs'

/** Bytes read at a time: the file is never one string, so its size is not bounded by one. */
export const CHUNK_BYTES = 1 << 20

/** What `eachLine` leaves after the lines it visited. */
export type LinesRead = {
  /** Byte length of the lines ended by a newline (each counted with its newline). */
  readonly wholeBytes: number
  /** The bytes after the last newline, when the file does not end with one. */
  readonly tail: Buffer | undefined
}

/**
 * Calls `visit` with each line ended by a newline in the file open at `fd` (without its newline),
 * synchronously, reading `chunkBytes` at a time: lines are split on the byte 0x0A (which never
 * occurs inside a multi-byte UTF-8 character). A line within one chunk comes as text; a line
 * that spans chunks comes as its bytes, so one longer than the longest string reaches `visit`
 * instead of throwing here. Returns the unterminated tail, for the caller to judge. What the file
 * system refuses is thrown as `readFailed(error)` makes it.
 */
export const eachLine = (
  fd: number,
  visit: (line: Buffer | string) => void,
  readFailed: (error: unknown) => Error,
  chunkBytes: number = CHUNK_BYTES,
): LinesRead => {
  /** The pieces of the line being read (it may span chunks). */
  let pieces: Buffer[] = []
  let wholeBytes = 0
  let position = 0
  for (;;) {
    const chunk = Buffer.allocUnsafe(chunkBytes)
    let read: number
    try {
      read = readSync(fd, chunk, 0, chunkBytes, position)
    } catch (error) {
      throw readFailed(error)
    }
    if (read === 0) break
    position += read
    const bytes = chunk.subarray(0, read)
    let from = 0
    // The end of a line begun in an earlier chunk: passed on as its bytes, which may be many.
    if (pieces.length > 0) {
      const nl = bytes.indexOf(0x0a)
      if (nl === -1) {
        pieces.push(bytes)
        continue
      }
      pieces.push(bytes.subarray(0, nl))
      const lineBytes = join(pieces)
      pieces = []
      visit(lineBytes)
      wholeBytes += lineBytes.length + 1
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
        visit(text.slice(start, nl))
        start = nl + 1
      }
      visit(text.slice(start))
      wholeBytes += block.length + 1
      from = last + 1
    }
    if (from < read) pieces.push(bytes.subarray(from))
  }
  return { wholeBytes, tail: pieces.length === 0 ? undefined : join(pieces) }
}

const join = (pieces: readonly Buffer[]): Buffer =>
  pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces as Buffer[])
