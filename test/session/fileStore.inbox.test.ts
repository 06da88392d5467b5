/**
 * R50: a file store's inbox journal, `<path>.inbox`: records round-trip through flush and reopen,
 * append never touches the disk, flush() completes only when the journal is durable too, close()
 * writes what is pending, and the journal shares the log's writer lock.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { firstValueFrom, from, type Observable } from 'rxjs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { InboxRecord } from '../../src/contracts/inbox.js'
import { fileStore, SessionLockedError, type SessionStore } from '../../src/index.js'
import { hostileValues } from '../support/hostile.js'
import { add, message, settle } from '../support/inboxRecords.js'

let dir: string
let path: string
let journal: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'steerable-inbox-'))
  path = join(dir, 'session.jsonl')
  journal = `${path}.inbox`
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

const flush = (store: SessionStore) => firstValueFrom(from(store.flush()), { defaultValue: undefined })
const sizeOf = (file: string) => (existsSync(file) ? statSync(file).size : -1)
const journalLines = () =>
  readFileSync(journal, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as InboxRecord)

/** Records that are already compact (adds and settlements only), so reopening keeps them as they are. */
const RECORDS: InboxRecord[] = [
  add('A'),
  add('S', 'steering', { turn: 2 }),
  add('P', 'parked'),
  add('C', 'context'),
  settle('D', { kind: 'discarded', reason: 'cancel' }),
  settle('B', { kind: 'blocked', reason: { why: 'policy' } }),
]

describe('R50: the file store keeps an inbox journal', () => {
  it('R50: records round-trip: append, flush, reopen, load; more appended after a reopen follow them', async () => {
    const store = fileStore(path)
    expect(store.inbox.load()).toStrictEqual([])
    store.inbox.append(RECORDS.slice(0, 4))
    store.inbox.append(RECORDS.slice(4))
    expect(store.inbox.load()).toStrictEqual(RECORDS)
    await flush(store)
    store.close?.()
    expect(journalLines()).toStrictEqual(RECORDS)

    const reopened = fileStore(path)
    expect(reopened.inbox.load()).toStrictEqual(RECORDS)
    expect(reopened.warnings).toStrictEqual([])
    reopened.inbox.append([add('E')])
    await flush(reopened)
    reopened.close?.()
    const third = fileStore(path)
    expect(third.inbox.load()).toStrictEqual([...RECORDS, add('E')])
    third.close?.()
  })

  it('R50: append never touches the disk; flush writes; a session without records has no journal', async () => {
    const store = fileStore(path)
    store.inbox.append([add('A')])
    expect(sizeOf(journal)).toBe(-1) // not even created
    await flush(store)
    const first = sizeOf(journal)
    expect(first).toBeGreaterThan(0)
    store.inbox.append([add('B'), add('C', 'steering')])
    expect(sizeOf(journal)).toBe(first)
    await flush(store)
    expect(sizeOf(journal)).toBeGreaterThan(first)
    store.close?.()

    const other = join(dir, 'other.jsonl')
    const quiet = fileStore(other)
    await flush(quiet)
    quiet.close?.()
    expect(existsSync(`${other}.inbox`)).toBe(false)
  })

  it('R50: flush() completes only when the journal is durable too (a big journal write, a small log one)', async () => {
    const store = fileStore(path)
    const big = { ...message('BIG'), content: [{ type: 'text' as const, text: 'x'.repeat(8_000_000) }] }
    store.append([{ seq: 1, type: 'turn/start', data: { turn: 1, trigger: { kind: 'retry' } } }])
    store.inbox.append([{ op: 'add', message: big, placement: 'queued' }])
    await flush(store)
    // Read right when flush completed: the whole line is there.
    expect(journalLines()).toStrictEqual([{ op: 'add', message: big, placement: 'queued' }])
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(2)
    store.close?.()
  })

  it('R50: close() writes the pending records, also after a checkpoint write still in flight', async () => {
    const store = fileStore(path)
    store.inbox.append([
      {
        op: 'add',
        message: { ...message('BIG'), content: [{ type: 'text', text: 'y'.repeat(4_000_000) }] },
        placement: 'queued',
      },
    ])
    const flushed = new Promise<void>((resolve, reject) => {
      ;(store.flush() as Observable<void>).subscribe({ complete: resolve, error: reject })
    })
    store.inbox.append([add('AFTER')])
    store.close?.()
    await flushed
    let reopened: ReturnType<typeof fileStore> | undefined
    for (let i = 0; i < 100 && !reopened; i++) {
      try {
        reopened = fileStore(path)
      } catch {
        await new Promise((r) => setTimeout(r, 20))
      }
    }
    expect(reopened?.inbox.load().map((r) => (r.op === 'add' ? r.message.id : r.op))).toStrictEqual([
      'BIG',
      'AFTER',
    ])
    reopened?.close?.()
  })

  it('R50: a value JSON cannot hold as a blocked reason is written as a description; flush never fails on it', async () => {
    const store = fileStore(path)
    const hostile = Object.entries(hostileValues())
    store.inbox.append(hostile.map(([name, reason]) => settle(name, { kind: 'blocked', reason })))
    store.inbox.append([settle('E', { kind: 'refused', error: new TypeError('no such agent') })])
    await flush(store)
    store.close?.()
    const reopened = fileStore(path)
    const records = reopened.inbox.load()
    expect(records.map((r) => (r.op === 'settle' ? r.id : ''))).toStrictEqual([
      ...hostile.map(([n]) => n),
      'E',
    ])
    expect(records.at(-1)).toStrictEqual(
      settle('E', { kind: 'refused', error: { name: 'TypeError', message: 'no such agent' } }),
    )
    reopened.close?.()
  })

  it("R50: the journal is under the log's writer lock: a second opener is refused and touches nothing", async () => {
    const store = fileStore(path)
    store.inbox.append([add('A')])
    await flush(store)
    const before = readFileSync(journal)
    expect(() => fileStore(path)).toThrow(SessionLockedError)
    expect(readFileSync(journal)).toStrictEqual(before)
    store.inbox.append([settle('A')])
    await flush(store)
    store.close?.()
    const reopened = fileStore(path)
    expect(reopened.inbox.load()).toStrictEqual([settle('A')]) // compacted on open: A no longer waits
    reopened.close?.()
  })
})
