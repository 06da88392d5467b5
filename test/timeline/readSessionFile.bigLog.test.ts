/**
 * `readSessionFile` reads any log a file store can reopen: one of more than 512 MiB (longer than
 * the longest string V8 holds) is read line by line, as the store reads it, not as one string.
 */
import { appendFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fileStore, type SessionEvent } from '../../src/index.js'
import { readSessionFile } from '../../src/timeline.js'

// In memory where the system has one (tmpfs): the test is about strings, not about the disk.
const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir()
let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(base, 'steerable-big-log-'))
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

const MiB = 1 << 20
const message = (seq: number, text: string): SessionEvent => ({
  seq,
  type: 'user/message',
  data: { content: [{ type: 'text', text }], source: { kind: 'user' } },
})

describe('readSessionFile on a log of more than 512 MiB', () => {
  it('R37: reads a 576 MiB log the file store reopens, every event in order, with no warning', () => {
    const path = join(dir, 'session.jsonl')
    // The lines a file store writes (one JSON event each), made from one stringified event: 36
    // stringifications of 16 MiB, or the store's fsyncs, would make the test several times slower.
    const text = 'x'.repeat(16 * MiB)
    const rest = JSON.stringify(message(1, text)).slice('{"seq":1'.length)
    for (let seq = 1; seq <= 36; seq++) appendFileSync(path, `{"seq":${seq}${rest}\n`)
    appendFileSync(path, `${JSON.stringify(message(37, 'after'))}\n`)
    expect(statSync(path).size).toBeGreaterThan(576 * MiB)
    // The store reopens it: the log is one it wrote or could have.
    const reopened = fileStore(path)
    expect(reopened.load()).toHaveLength(37)
    reopened.close?.()

    const { record, warnings } = readSessionFile(path)
    expect(warnings).toStrictEqual([])
    expect(record.entries.map((entry) => (entry.event as SessionEvent).seq)).toStrictEqual(
      Array.from({ length: 37 }, (_, i) => i + 1),
    )
    const first = record.entries[0]!.event as SessionEvent & { type: 'user/message' }
    expect(first.data.content[0]).toStrictEqual({ type: 'text', text })
    expect(record.entries[36]!.event).toStrictEqual(message(37, 'after'))
  }, 120_000)
})
