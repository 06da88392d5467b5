/**
 * R29, R35: `close()` while a checkpoint's write is still in flight (dispose() gave up waiting for
 * a slow flush, `flushTimeoutMs`) must not write over it: the last events go after the write in
 * flight, and the file opens with every event in order.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { fileStore, type SessionEvent } from '../../src/index.js'

const dir = mkdtempSync(join(tmpdir(), 'steerable-close-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const message = (seq: number, text: string): SessionEvent => ({
  seq,
  type: 'user/message',
  data: { content: [{ type: 'text', text }], source: { kind: 'user' } },
})

describe('fileStore close() during a flush', () => {
  it('R35: events appended after a flush started and handed to close() land after it', async () => {
    const path = join(dir, 'race.jsonl')
    const store = fileStore(path)
    const big = message(1, 'x'.repeat(4_000_000))
    store.append([big])
    const flushed = new Promise<void>((resolve, reject) => {
      ;(store.flush() as import('rxjs').Observable<void>).subscribe({ complete: resolve, error: reject })
    })
    store.append([message(2, 'after')])
    store.close?.()
    await flushed
    // The deferred close finishes once the write in flight is done; then the lock is free.
    let reopened: ReturnType<typeof fileStore> | undefined
    for (let i = 0; i < 100 && !reopened; i++) {
      try {
        reopened = fileStore(path)
      } catch {
        await new Promise((r) => setTimeout(r, 20))
      }
    }
    expect(reopened?.load().map((e) => e.seq)).toEqual([1, 2])
    expect(reopened?.warnings).toEqual([])
    reopened?.close?.()
  })
})
