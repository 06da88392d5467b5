/**
 * R37: a session log larger than the longest string V8 holds (about 512 MiB on 64-bit Node 20)
 * opens: the log is read line by line, never as one string. The file (about 550 MiB, written
 * with plain `writeSync` of Buffers: one 50 MiB text buffer reused for every line) lives in the
 * temp directory for the length of the test. Memory: the events hold 11 strings of 50 MiB (one
 * copy); reading adds a few buffers of one line's size at a time.
 */
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fileStore } from '../../src/index.js'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'steerable-large-'))
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

const MiB = 1 << 20
const EVENTS = 11
const TEXT_BYTES = 50 * MiB

describe('R37: a log larger than the longest string', () => {
  it('R37: a log of more than 512 MiB opens with every event; a torn tail is cut at its exact byte', () => {
    const path = join(dir, 'session.jsonl')
    const text = Buffer.alloc(TEXT_BYTES, 'a')
    const fd = openSync(path, 'w')
    let validBytes = 0
    const put = (data: Buffer) => {
      for (let offset = 0; offset < data.length; ) offset += writeSync(fd, data, offset, data.length - offset)
      validBytes += data.length
    }
    for (let seq = 1; seq <= EVENTS; seq++) {
      put(Buffer.from(`{"seq":${seq},"type":"user/message","data":{"content":[{"type":"text","text":"${seq}`))
      put(text)
      put(Buffer.from('"}],"source":{"kind":"user"}}}\n'))
    }
    writeSync(fd, '{"seq":12,"type":"user/mess') // torn: the process died mid-write
    closeSync(fd)
    expect(validBytes).toBeGreaterThan(512 * MiB)

    const store = fileStore(path)
    const events = store.load()
    expect(events).toHaveLength(EVENTS)
    expect(store.warnings).toHaveLength(1)
    events.forEach((event, i) => {
      expect(event.seq).toBe(i + 1)
      const block = event.type === 'user/message' ? event.data.content[0] : undefined
      const body = block?.type === 'text' ? block.text : ''
      expect(body.length).toBe(TEXT_BYTES + String(i + 1).length)
      expect(body.startsWith(`${i + 1}aaa`)).toBe(true)
    })
    store.close?.()
    expect(statSync(path).size).toBe(validBytes)
  }, 300_000)
})
