/**
 * The writer lock where the file system has no hard links (vfat, exFAT, many SMB shares): link()
 * fails there with EPERM (or ENOTSUP), which once made every session fail to open with an error
 * that blamed permissions. The lock is then created by an exclusive open instead.
 *
 * This machine cannot mount such a file system, so link() is made to fail as vfat's does; every
 * other call is the real one, on real files.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'

const refusal = vi.hoisted(() => ({ code: 'EPERM' as string | undefined }))
vi.mock('node:fs', async (real) => {
  const fs = await real<typeof import('node:fs')>()
  const linkSync: typeof fs.linkSync = (from, to) => {
    if (!refusal.code) return fs.linkSync(from, to)
    throw Object.assign(new Error(`${refusal.code}: operation not permitted, link '${from}' -> '${to}'`), {
      code: refusal.code,
    })
  }
  return { ...fs, default: { ...fs, linkSync }, linkSync }
})

const { acquireLock } = await import('../../src/session/fileLock.js')
const { createAgent, fileStore, SessionLockedError } = await import('../../src/index.js')
const { scriptedModel } = await import('../../src/testing.js')

const dir = mkdtempSync(join(tmpdir(), 'steerable-nolinks-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let n = 0
const freshLog = () => join(dir, `session-${n++}.jsonl`)

describe.each(['EPERM', 'ENOTSUP', 'EOPNOTSUPP'])('a file system whose link() fails with %s', (code) => {
  beforeEach(() => {
    refusal.code = code
  })

  it('R35: the writer lock is taken, names its owner, refuses a second writer and is released', () => {
    const log = freshLog()
    const lock = acquireLock(log)
    expect(readFileSync(`${log}.lock`, 'utf8')).toMatch(new RegExp(`^${process.pid} \\S+ [0-9a-f]{32}\\n$`))
    expect(() => acquireLock(log)).toThrow(SessionLockedError)
    lock.release()
    expect(existsSync(`${log}.lock`)).toBe(false)
    acquireLock(log).release()
  })

  it('R35: a stale lock (its owner is gone) is broken and taken over', () => {
    const log = freshLog()
    const lock = acquireLock(log)
    // A pid that runs nothing stands for a crashed writer.
    const text = readFileSync(`${log}.lock`, 'utf8').replace(/^\d+ \S+/, '999999999 -')
    rmSync(`${log}.lock`)
    writeFileSync(`${log}.lock`, text)
    acquireLock(log).release()
    lock.release()
  })

  it('R35: a session opens, records and reopens on it', async () => {
    const log = freshLog()
    const agent = createAgent({ model: scriptedModel(['hello']), store: fileStore(log) })
    await agent.outcome(agent.followup('hi'))
    await agent.dispose()
    const again = fileStore(log)
    expect(again.load().map((e) => e.type)).toContain('user/message')
    again.close?.()
  })
})
