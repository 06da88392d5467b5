/**
 * R40, R50: a journal write that fails (a directory takes the journal's name, `blockWrites`:
 * writes fail with EISDIR) rejects the checkpoint with a
 * SessionStoreError naming the log and the journal; nothing is lost, and once writing works again
 * the next flush writes every record exactly once.
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { firstValueFrom, from } from 'rxjs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fileStore, type SessionEvent, type SessionStore, SessionStoreError } from '../../src/index.js'
import { blockWrites } from '../support/blockWrites.js'
import { add, settle } from '../support/inboxRecords.js'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'steerable-inbox-fail-'))
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

const flush = (store: SessionStore) => firstValueFrom(from(store.flush()), { defaultValue: undefined })
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

    const unblock = blockWrites(journal)
    store.append([event(1)])
    store.inbox.append([add('B'), settle('A')])
    const error = await flush(store).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SessionStoreError)
    expect((error as SessionStoreError).path).toBe(path)
    expect((error as SessionStoreError).code).toBe('EISDIR')
    expect((error as Error).message).toContain(`cannot write its inbox journal ${journal} (EISDIR)`)
    expect((error as Error).message).toContain('nothing was lost')
    expect(lines(path)).toStrictEqual([event(1)]) // the log's half of the checkpoint is written
    unblock()
    expect(lines(journal)).toStrictEqual([add('A')])

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
