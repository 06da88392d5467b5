/**
 * R37: the file store reads its log in chunks and decodes the whole lines of each chunk at once.
 * Lines that cross a chunk boundary, multi-byte characters on either side of it, and a torn last
 * line must all come out exactly as written.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fileStore, type SessionEvent, SessionLogError } from '../../src/index.js'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'steerable-chunks-'))
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

/** 3 MiB of user messages of varied lengths (1 B to 300 KiB), with 2-, 3- and 4-byte characters. */
const events = (): SessionEvent[] => {
  const list: SessionEvent[] = []
  const alphabet = ['a', 'é', '€', '😀', '"', '\\', '\n']
  let bytes = 0
  for (let seq = 1; bytes < 3 * 2 ** 20; seq++) {
    const length = seq % 13 === 0 ? 100_000 + seq * 7 : (seq * 37) % 900
    let text = ''
    for (let i = 0; i < length; i++) text += alphabet[(seq + i) % alphabet.length]
    const event: SessionEvent = {
      seq,
      type: 'user/message',
      data: { content: [{ type: 'text', text }], source: { kind: 'user' } },
    }
    bytes += Buffer.byteLength(JSON.stringify(event)) + 1
    list.push(event)
  }
  return list
}

describe('fileStore: lines across read chunks (R37)', () => {
  it('R37: every line comes out as written, across 1 MiB chunk boundaries, and a torn tail is cut at its byte', () => {
    const path = join(dir, 'log.jsonl')
    const written = events()
    const body = written.map((e) => `${JSON.stringify(e)}\n`).join('')
    writeFileSync(path, `${body}{"seq":${written.length + 1},"type":"user/mes`)
    const store = fileStore(path)
    expect(store.load()).toEqual(written)
    expect(store.warnings).toHaveLength(1)
    store.close?.()
    expect(statSync(path).size).toBe(Buffer.byteLength(body))
  })

  it('R37: a corrupt line after a chunk boundary is named by its line number', () => {
    const path = join(dir, 'log.jsonl')
    const written = events()
    const at = written.length - 3
    const lines = written.map((e) => JSON.stringify(e))
    lines[at] = (lines[at] as string).replace('"user/message"', '"user/messag"')
    writeFileSync(path, `${lines.join('\n')}\n`)
    expect(() => fileStore(path)).toThrow(SessionLogError)
    try {
      fileStore(path)
    } catch (error) {
      expect((error as SessionLogError).line).toBe(at + 1)
    }
  })
})
