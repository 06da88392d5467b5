/**
 * R35: what the file system refuses is a `SessionStoreError` that names the session log (not its
 * lock file), keeps the system error as `cause`, says what to do, and leaves nothing behind.
 * Permission errors are in test/session/crash.lock.test.ts (they need an unprivileged child when the
 * tests run as root).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { firstValueFrom, from } from 'rxjs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fileStore, SessionStoreError } from '../../src/index.js'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'steerable-storeerror-'))
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

/** Opening `path` throws a SessionStoreError for `path` with `code`; the directory is as before. */
const refused = (path: string, code: string, advice: RegExp): SessionStoreError => {
  const before = readdirSync(dir).sort()
  let error: unknown
  try {
    fileStore(path)
  } catch (e) {
    error = e
  }
  expect(error).toBeInstanceOf(SessionStoreError)
  const e = error as SessionStoreError
  expect(e.name).toBe('SessionStoreError')
  expect(e.path).toBe(path)
  expect(e.code).toBe(code)
  expect((e.cause as NodeJS.ErrnoException).code).toBe(code)
  expect(e.message.startsWith(`${path}: `)).toBe(true)
  expect(e.message).toMatch(advice)
  expect(readdirSync(dir).sort()).toEqual(before)
  return e
}

describe('R35: file store errors name the log and say what to do', () => {
  it('R35: a missing parent directory: SessionStoreError naming the log, "create the directory first"', () => {
    const path = join(dir, 'missing', 'session.jsonl')
    const error = refused(
      path,
      'ENOENT',
      /the directory .*missing does not exist: create the directory first/,
    )
    expect(error.message).not.toContain('.lock')
  })

  it('R35: a path that is a directory: SessionStoreError naming it, "pass the path of a file"; no lock left', () => {
    const path = join(dir, 'sessions')
    mkdirSync(path)
    refused(path, 'EISDIR', /is a directory: pass the path of a file/)
  })

  it('R35: a lock path that is a directory: SessionStoreError naming the log, "remove it"; the log is untouched', () => {
    const path = join(dir, 'session.jsonl')
    writeFileSync(path, 'not even JSON\n')
    mkdirSync(`${path}.lock`)
    refused(path, 'EISDIR', /session\.jsonl\.lock is a directory: remove it/)
    expect(readFileSync(path, 'utf8')).toBe('not even JSON\n')
  })

  it('R35: a path under a file: SessionStoreError, "fix the path"', () => {
    writeFileSync(join(dir, 'plain'), '')
    refused(join(dir, 'plain', 'session.jsonl'), 'ENOTDIR', /is not a directory: fix the path/)
  })

  it('R35: flush() on a closed store fails with SessionStoreError naming the log', async () => {
    const path = join(dir, 'session.jsonl')
    const store = fileStore(path)
    store.close?.()
    const error = await firstValueFrom(from(store.flush())).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SessionStoreError)
    expect((error as SessionStoreError).path).toBe(path)
    expect((error as Error).message).toMatch(/the store is closed; open it again with fileStore\(path\)/)
  })
})
