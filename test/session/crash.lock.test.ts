/**
 * R35: one writer per session log, across processes. Real child processes
 * (test/support/children/lockChild.ts) race for the writer lock of one file: in a loop, and for the stale
 * lock of a holder killed with SIGKILL. Every holder journals `enter`/`exit` around its write; at
 * no moment may two processes hold the lock, every holder's event must be in the log, and the log
 * must open. Also: opening a log the process may not write gives `SessionStoreError` naming the
 * log (checked in a child running as an unprivileged user when the tests run as root).
 *
 * The child is bundled once with esbuild and run with plain `node`, as in test/session/crash.test.ts.
 */
import {
  appendFileSync,
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fileStore } from '../../src/index.js'
import { bundleChild, type ChildProgram } from '../support/bundleChild.js'
import type { Child } from '../support/childProcesses.js'

const root = mkdtempSync(join(tmpdir(), 'steerable-lock-'))
let program: ChildProgram
let dir: string
let count = 0

beforeAll(async () => {
  program = await bundleChild('lockChild', { deadlineMs: 90_000 })
}, 120_000)
afterAll(() => {
  program.remove()
  rmSync(root, { recursive: true, force: true })
})

const start = (args: readonly string[], user: { uid?: number; gid?: number } = {}): Child =>
  program.start({ args, stdin: 'ignore', ...user })

/** Holders in journal order; `overlaps` lists every `enter` while another process held the lock. */
const checkJournal = (text: string) => {
  let holder: string | undefined
  let enters = 0
  const overlaps: string[] = []
  text
    .split('\n')
    .filter((l) => l !== '')
    .forEach((entry, i) => {
      const [pid, word] = entry.split(' ')
      if (word === 'enter') {
        enters++
        if (holder !== undefined) overlaps.push(`line ${i + 1}: ${pid} entered while ${holder} held the lock`)
        holder = pid
      } else if (holder === pid) holder = undefined // `exit`, or `killed` by the parent
    })
  return { enters, overlaps }
}

const fresh = () => {
  dir = join(root, `case-${++count}`)
  mkdirSync(dir)
  return { log: join(dir, 'session.jsonl'), journal: join(dir, 'journal') }
}

/** The log opens, and holds exactly one event per holder, in `seq` order. */
const expectLogOf = (log: string, holders: number) => {
  const store = fileStore(log)
  expect(store.warnings).toEqual([])
  expect(store.load().map((e) => e.seq)).toEqual(Array.from({ length: holders }, (_, i) => i + 1))
  store.close?.()
}

describe('R35: one writer per file across processes', () => {
  it('R35: processes opening one log in a loop never hold its lock together; every write survives', async () => {
    const { log, journal } = fresh()
    const go = join(dir, 'go')
    const racers = Array.from({ length: 3 }, () => start(['loop', log, journal, go, '1000']))
    await Promise.all(racers.map((r) => r.line(/^ready$/)))
    writeFileSync(go, '')
    const exits = await Promise.all(racers.map((r) => r.exit))
    for (const [i, exit] of exits.entries())
      expect(exit.code, `racer ${i}: ${racers[i]!.lines.join('\n')}\n${exit.stderr}`).toBe(0)
    const wins = racers.map((r) => Number(r.lines.find((l) => l.startsWith('done '))?.split(' ')[1]))
    const { enters, overlaps } = checkJournal(readFileSync(journal, 'utf8'))
    expect(overlaps).toEqual([])
    expect(enters).toBe(wins.reduce((a, b) => a + b, 0))
    expect(enters).toBeGreaterThan(0)
    expectLogOf(log, enters)
  }, 180_000)

  it('R35: six processes racing for a killed holder’s stale lock: exactly one wins each round', async () => {
    const { log, journal } = fresh()
    const ROUNDS = 6
    const RACERS = 6
    // Each round's winner is killed holding the lock, so the next round races for a stale lock;
    // every round starts with at least RACERS live racers (started once: spawning is the slow part).
    writeFileSync(join(dir, 'first-1'), '')
    const first = start(['race', log, journal, join(dir, 'first-'), '1'])
    const racers = Array.from({ length: RACERS + ROUNDS - 1 }, () =>
      start(['race', log, journal, join(dir, 'go-'), String(ROUNDS)]),
    )
    await first.line(/^held 1$/)
    /** Kills the holder and journals it: its lock is now a dead process's. */
    const kill = async (holder: Child) => {
      holder.kill()
      expect((await holder.exit).signal).toBe('SIGKILL')
      appendFileSync(journal, `${holder.pid} killed\n`)
    }
    await kill(first)
    await Promise.all(racers.map((r) => r.line(/^ready$/)))
    let alive = racers
    for (let round = 1; round <= ROUNDS; round++) {
      expect(alive.length).toBeGreaterThanOrEqual(RACERS)
      writeFileSync(join(dir, `go-${round}`), '')
      const outcomes = await Promise.all(
        alive.map((r) => r.line(new RegExp(`^((held|lost) ${round}|error .*)$`))),
      )
      expect(outcomes.filter((o) => o.startsWith('error'))).toEqual([])
      const holders = alive.filter((_, i) => outcomes[i] === `held ${round}`)
      for (const holder of holders) await kill(holder)
      expect(holders.length, `round ${round}: processes that hold the lock at once`).toBe(1)
      alive = alive.filter((r) => !holders.includes(r))
    }
    await Promise.all(alive.map((r) => r.exit))
    const { enters, overlaps } = checkJournal(readFileSync(journal, 'utf8'))
    expect(overlaps).toEqual([])
    expectLogOf(log, enters)
  }, 180_000)
})

describe('R35: a log the process may not write', () => {
  /** Runs `fileStore(log)` in a child; as an unprivileged user when the tests run as root. */
  const openInChild = async (log: string) => {
    const asRoot = process.getuid?.() === 0
    const child = start(['open', log], asRoot ? { uid: 65534, gid: 65534 } : {})
    const line = await child.line(/^(opened|error .*)$/)
    expect(line).toMatch(/^error /)
    return JSON.parse(line.slice('error '.length)) as {
      name: string
      message: string
      path: string
      code: string
    }
  }

  it('R35: a directory without write permission gives SessionStoreError naming the log, not the lock', async () => {
    fresh()
    const locked = join(dir, 'read-only')
    mkdirSync(locked)
    chmodSync(dir, 0o755)
    chmodSync(locked, 0o555)
    const log = join(locked, 'session.jsonl')
    const error = await openInChild(log)
    expect(error).toMatchObject({ name: 'SessionStoreError', path: log, code: 'EACCES' })
    expect(error.message).toContain(log)
    expect(error.message).toMatch(/check the permissions/)
    expect(error.message).not.toContain('.lock')
  })

  it('R35: a log file without read or write permission gives SessionStoreError naming it', async () => {
    fresh()
    chmodSync(dir, 0o777)
    const log = join(dir, 'session.jsonl')
    writeFileSync(log, '')
    chmodSync(log, 0o000)
    const error = await openInChild(log)
    expect(error).toMatchObject({ name: 'SessionStoreError', path: log, code: 'EACCES' })
    expect(error.message).toContain(log)
    expect(error.message).toMatch(/check the permissions/)
  })
})
