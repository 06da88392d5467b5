/**
 * R40, R50: a journal write that fails (the journal's descriptor swapped, under the same number,
 * for a read-only handle on the same file: writes fail with EBADF) rejects the checkpoint with a
 * SessionStoreError naming the log and the journal; nothing is lost, and once writing works again
 * the next flush writes every record exactly once.
 */
import {
  closeSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { firstValueFrom, from } from 'rxjs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fileStore, type SessionEvent, type SessionStore, SessionStoreError } from '../src/index.js'
import { add, settle } from './support/inboxRecords.js'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'steerable-inbox-fail-'))
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

const flush = (store: SessionStore) => firstValueFrom(from(store.flush()), { defaultValue: undefined })
const fdOf = (file: string): number => {
  const real = realpathSync(file)
  const found = readdirSync('/proc/self/fd').filter((name) => {
    try {
      return readlinkSync(`/proc/self/fd/${name}`) === real
    } catch {
      return false
    }
  })
  expect(found).toHaveLength(1)
  return Number(found[0])
}
/** Re-opens `file` with `flags` under the number `fd` (fills lower free numbers meanwhile). */
const swap = (fd: number, file: string, flags: string) => {
  closeSync(fd)
  const extra: number[] = []
  for (;;) {
    const got = openSync(file, flags)
    if (got === fd) break
    extra.push(got)
    if (got > fd) throw new Error(`fd ${fd} was taken while swapping`)
  }
  for (const other of extra) closeSync(other)
}
const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as unknown)
const event = (seq: number): SessionEvent => ({
  seq,
  type: 'turn/start',
  data: { turn: seq, trigger: { kind: 'retry' } },
})

describe.runIf(process.platform === 'linux')('R40, R50: journal write failures', () => {
  it('R40, R50: a failed journal write rejects flush, naming the journal; the next flush writes every record once', async () => {
    const path = join(dir, 'session.jsonl')
    const journal = `${path}.inbox`
    const store = fileStore(path)
    store.inbox.append([add('A')])
    await flush(store)

    const fd = fdOf(journal)
    swap(fd, journal, 'r')
    store.append([event(1)])
    store.inbox.append([add('B'), settle('A')])
    const error = await flush(store).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SessionStoreError)
    expect((error as SessionStoreError).path).toBe(path)
    expect((error as SessionStoreError).code).toBe('EBADF')
    expect((error as Error).message).toContain(`cannot write its inbox journal ${journal} (EBADF)`)
    expect((error as Error).message).toContain('nothing was lost')
    expect(lines(path)).toStrictEqual([event(1)]) // the log's half of the checkpoint is written
    expect(lines(journal)).toStrictEqual([add('A')])

    swap(fd, journal, 'r+')
    store.inbox.append([add('C')])
    await flush(store)
    expect(lines(journal)).toStrictEqual([add('A'), add('B'), settle('A'), add('C')])
    store.close?.()
    const reopened = fileStore(path)
    expect(reopened.warnings).toStrictEqual([])
    expect(reopened.inbox.load()).toStrictEqual([settle('A'), add('B'), add('C')]) // compacted
    reopened.close?.()
  })
})
