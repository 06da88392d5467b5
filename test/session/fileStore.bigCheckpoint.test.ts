/**
 * A file store buffers what is appended between two checkpoints in pieces, so more than the
 * longest string V8 holds (about 512 MiB) is written by the next checkpoint, in order, and the
 * store goes on writing after it (R36, R40). An event that cannot be one JSON line (longer than
 * the longest string, or not JSON) is refused alone, with a typed error, and nothing of its batch
 * is taken.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { firstValueFrom, from } from 'rxjs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fileStore, type SessionEvent, type SessionStore, SessionStoreError } from '../../src/index.js'

// In memory where the system has one (tmpfs): the test is about strings, not about the disk, and
// half a GiB written and fsynced to a shared disk takes tens of seconds.
const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir()
let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(base, 'steerable-big-checkpoint-'))
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

const MiB = 1 << 20
const flush = (store: SessionStore) => firstValueFrom(from(store.flush()), { defaultValue: undefined })
const message = (seq: number, text: string): SessionEvent => ({
  seq,
  type: 'user/message',
  data: { content: [{ type: 'text', text }], source: { kind: 'user' } },
})

describe('a checkpoint of more than 512 MiB', () => {
  it('R36, R40: 576 MiB appended between two checkpoints is written by the next one, in order, and writing goes on', async () => {
    const path = join(dir, 'session.jsonl')
    const store = fileStore(path)
    const text = 'x'.repeat(16 * MiB) // one string, shared by every event
    const events = Array.from({ length: 36 }, (_, i) => message(i + 1, text))
    for (const event of events) store.append([event])
    await flush(store)
    expect(statSync(path).size).toBeGreaterThan(576 * MiB)
    store.append([message(37, 'after')])
    await flush(store)
    store.close?.()
    // Every line in order, read back as bytes (36 lines of 16 MiB, then the last event's).
    const bytes = readFileSync(path)
    const lines: number[] = []
    for (let at = 0, next = bytes.indexOf(10); next !== -1; at = next + 1, next = bytes.indexOf(10, at))
      lines.push(next - at)
    expect(lines).toHaveLength(37)
    const last = bytes.subarray(bytes.length - (lines.at(-1) as number) - 1).toString()
    expect(JSON.parse(last)).toEqual(message(37, 'after'))
    expect(JSON.parse(bytes.subarray(0, 200).toString().replace(/x+$/, 'x"}]}}')).seq).toBe(1)
  }, 120_000)

  it('R40: an event that cannot be one JSON line is refused alone with SessionStoreError; nothing of its batch is taken', async () => {
    const path = join(dir, 'session.jsonl')
    const store = fileStore(path)
    // JSON.stringify throws on it, as it does on a line longer than the longest string.
    const unwritable = {
      ...message(2, 'x'),
      data: { ...message(2, 'x').data, size: 10n },
    } as unknown as SessionEvent
    let error: unknown
    try {
      store.append([message(1, 'fine'), unwritable])
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(SessionStoreError)
    expect((error as Error).message).toContain('cannot write event 2')
    expect(store.load()).toEqual([])
    store.append([message(1, 'fine')])
    await flush(store)
    store.close?.()
    const reopened = fileStore(path)
    expect(reopened.load()).toEqual([message(1, 'fine')])
    reopened.close?.()
  })
})
