/**
 * An open file store holds no file descriptor while idle: it opens its log and its inbox journal
 * for each write and closes them after, so a process can keep more sessions open than its
 * open-file limit (R35, R50). A log that vanished while open is an error, never a new file.
 */
import { existsSync, mkdtempSync, readdirSync, readlinkSync, rmSync, unlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { firstValueFrom, from } from 'rxjs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createAgent, fileStore, type SessionStore, SessionStoreError } from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'steerable-fds-'))
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

/** The files of `dir` this process holds open (Linux's /proc). */
const openIn = (where: string): string[] =>
  readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`)
      return target.startsWith(where) ? [target] : []
    } catch {
      return []
    }
  })
const flush = (store: SessionStore) => firstValueFrom(from(store.flush()), { defaultValue: undefined })

describe.runIf(process.platform === 'linux')('a file store holds no descriptor while idle', () => {
  it('R35, R50: 200 agents over file stores, each after a turn and an inbox write, hold no file open', async () => {
    const agents = []
    for (let i = 0; i < 200; i++) {
      const agent = createAgent({ model: scriptedModel(['ok']), store: fileStore(join(dir, `s${i}.jsonl`)) })
      agent.followup('a question')
      agent.send('for later', { target: 'next-turn', wakeup: false })
      await agent.whenIdle()
      await agent.session.flush()
      agents.push(agent)
    }
    expect(openIn(dir)).toEqual([])
    expect(existsSync(join(dir, 's0.jsonl.inbox'))).toBe(true)
    await Promise.all(agents.map((agent) => agent.dispose()))
    const reopened = fileStore(join(dir, 's7.jsonl'))
    expect(reopened.load().map((e) => e.type)).toContain('turn/end')
    expect(reopened.inbox.load()).toHaveLength(1)
    reopened.close?.()
  })

  it('R40: a log removed while its store is open fails the next flush with SessionStoreError and is not made again', async () => {
    const path = join(dir, 'gone.jsonl')
    const store = fileStore(path)
    unlinkSync(path)
    store.append([{ seq: 1, type: 'turn/start', data: { turn: 1, trigger: { kind: 'retry' } } }])
    const error = await flush(store).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SessionStoreError)
    expect((error as SessionStoreError).code).toBe('ENOENT')
    expect((error as Error).message).toContain('was removed while the store was open')
    expect(() => store.close?.()).toThrow(SessionStoreError)
    expect(existsSync(path)).toBe(false)
  })
})
