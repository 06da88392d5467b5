/**
 * `eachLine`, the line reader the file store and `readSessionFile` share: whatever the chunk size,
 * it gives the lines the text splits into, multi-byte characters whole, and the unterminated tail.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { eachLine } from '../../src/session/eachLine.js'

const dir = mkdtempSync(join(tmpdir(), 'steerable-each-line-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const read = (text: string, chunkBytes: number) => {
  const path = join(dir, 'lines.txt')
  writeFileSync(path, text)
  const fd = openSync(path, 'r')
  try {
    const lines: string[] = []
    const { wholeBytes, tail } = eachLine(
      fd,
      (line) => lines.push(line.toString()),
      (e) => e as Error,
      chunkBytes,
    )
    return { lines, wholeBytes, tail: tail?.toString() }
  } finally {
    closeSync(fd)
  }
}

describe('eachLine', () => {
  // [name, text, the lines, the tail]
  const rows: [string, string, string[], string | undefined][] = [
    ['empty', '', [], undefined],
    ['lines ended by newlines', 'ab\ncd\n', ['ab', 'cd'], undefined],
    ['an unterminated tail', 'ab\ncd', ['ab'], 'cd'],
    ['empty lines', '\n\nab\n', ['', '', 'ab'], undefined],
    ['multi-byte characters', 'é€\n😀x\n€', ['é€', '😀x'], '€'],
  ]
  for (const chunkBytes of [1, 2, 3, 5, 1 << 20])
    it.each(rows)(`R37: %s, read ${chunkBytes} bytes at a time`, (_name, text, lines, tail) => {
      const got = read(text, chunkBytes)
      expect(got.lines).toStrictEqual(lines)
      expect(got.tail).toBe(tail)
      expect(got.wholeBytes).toBe(Buffer.byteLength(text) - Buffer.byteLength(tail ?? ''))
    })
})
