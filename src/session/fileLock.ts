import { randomBytes } from 'node:crypto'
import { closeSync, fstatSync, linkSync, openSync, readSync, unlinkSync, writeFileSync } from 'node:fs'
import { basename } from 'node:path'
import { isRunning, processStart } from './processStart.js'
import { storeError } from './storeError.js'
import { SessionLockedError, SessionStoreError } from './storeErrors.js'

/**
 * Takes the writer lock of a session log, `<path>.lock`, and returns it (`release()` gives it up).
 *
 * A lock file names its owner (`<pid> <start> <token>`: the process, when it started, and a
 * random token that names this very lock). It is written completely under a temporary name and
 * then hard-linked to `<path>.lock`; the link fails if the name exists, atomically, so two
 * writers never both create it and nobody ever sees a lock file half written. Where the file
 * system has no hard links (vfat, exFAT, many SMB shares refuse them) the lock file is created
 * with an exclusive open instead, equally atomic; a reader that finds it before its line is
 * written counts it as held (a lock file that names no owner yet, below).
 *
 * A lock whose owner no longer runs (a crashed writer; a pid now used by another process does
 * not count, the start time tells them apart) is stale and is taken over. Removing it is the
 * dangerous part: two writers may find the same stale lock, and the slower one must not remove
 * the lock the faster one has taken meanwhile. So removing a lock file whose token is T is only
 * done while holding `<path>.lock.break-T`, taken the same atomic way, after reading again that
 * the file still holds T. Its owner is dead and only the breaker removes it, so the file cannot
 * change between that read and the removal. A breaker that dies leaves a stale break marker,
 * which is broken the same way (recursively).
 *
 * Throws `SessionLockedError` while a live process holds the lock, `SessionStoreError` when the
 * file system refuses (a missing directory, a permission …), naming the log path.
 */
export const acquireLock = (path: string): WriterLock => {
  const lockPath = `${path}.lock`
  const token = randomBytes(16).toString('hex')
  const temp = `${lockPath}.${token}.tmp`
  const owner = `${process.pid} ${processStart(process.pid) ?? '-'} ${token}\n`
  try {
    writeFileSync(temp, owner, { flag: 'wx' })
  } catch (error) {
    throw storeError(path, 'create its lock file', error, temp)
  }
  try {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const outcome = take(path, lockPath, lockPath, { temp, owner }, 0)
      if (outcome === TAKEN) return new WriterLock(path, token)
      if (typeof outcome === 'number') throw new SessionLockedError(path, outcome)
      if (outcome === BUSY) sleep(1) // another process is breaking a stale lock: give it a moment
    }
    throw new SessionLockedError(path, Number.NaN)
  } catch (error) {
    if (error instanceof SessionLockedError || error instanceof SessionStoreError) throw error
    throw storeError(path, 'take its writer lock', error, lockPath)
  } finally {
    try {
      unlinkSync(temp)
    } catch {
      // Nothing to clean up, or a leftover temporary file that harms nothing.
    }
  }
}

const MAX_ATTEMPTS = 2000
/** How long a lock file that names no owner (an older writer mid-way) counts as held. */
const UNNAMED_GRACE_MS = 2000
const MAX_DEPTH = 8
const TAKEN = 'taken'
const AGAIN = 'again'
const BUSY = 'busy'
/** The outcome of one try: taken, the live owner's pid (`NaN` if unknown), or try again. */
type Outcome = typeof TAKEN | typeof AGAIN | typeof BUSY | number

/** This lock's file written under a temporary name, and the line it holds. */
type Mine = { readonly temp: string; readonly owner: string }

/** Tries to create `name` as a link to `temp`, breaking a stale file in the way (see above). */
const take = (path: string, lockPath: string, name: string, mine: Mine, depth: number): Outcome => {
  try {
    createAs(name, mine)
    return TAKEN
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  const seen = inspect(path, name)
  if (seen === undefined) return AGAIN // removed in between: link again
  if (seen.live) return name === lockPath ? seen.pid : BUSY
  if (depth >= MAX_DEPTH) return BUSY
  const marker = `${lockPath}.break-${seen.id}`
  const broke = take(path, lockPath, marker, mine, depth + 1)
  if (broke !== TAKEN) return broke === AGAIN ? AGAIN : BUSY
  try {
    if (inspect(path, name)?.id === seen.id) unlinkSync(name) // still the very file found stale
  } finally {
    unlinkSync(marker)
  }
  return AGAIN
}

/** The codes of a file system that has no hard links (EPERM: vfat, exFAT; the others: SMB, FUSE). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'])

/** Creates `name` holding `mine.owner`, failing with EEXIST if it exists. */
const createAs = (name: string, mine: Mine): void => {
  try {
    linkSync(mine.temp, name)
  } catch (error) {
    if (!NO_HARD_LINKS.has((error as NodeJS.ErrnoException).code ?? '')) throw error
    writeFileSync(name, mine.owner, { flag: 'wx' })
  }
}

type Seen = { readonly id: string; readonly live: boolean; readonly pid: number }

/**
 * Who holds the lock file `name`, or `undefined` when it is gone. `id` names this very file:
 * its token, or for a file without one (written by an older version) its inode and change time.
 */
const inspect = (path: string, name: string): Seen | undefined => {
  let fd: number
  try {
    fd = openSync(name, 'r')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw storeError(path, `read its lock file ${basename(name)}`, error, name)
  }
  try {
    const stat = fstatSync(fd, { bigint: true })
    const buffer = Buffer.alloc(128)
    const text = buffer.toString('utf8', 0, readSync(fd, buffer, 0, buffer.length, 0))
    const owner = /^(\d+) (\d+|-) ([0-9a-f]{32})\n$/.exec(text)
    if (owner) {
      const pid = Number(owner[1])
      const start = owner[2] === '-' ? undefined : owner[2]
      return { id: owner[3]!, pid, live: pid > 0 && isRunning(pid, start) }
    }
    const id = `${stat.ino}-${stat.ctimeNs}`
    const legacy = /^(\d+)$/.exec(text.trim())
    if (legacy) {
      const pid = Number(legacy[1])
      return { id, pid, live: pid > 0 && isRunning(pid, undefined) }
    }
    // Names no owner: an older version creates its lock before it writes the pid into it.
    const age = Date.now() - Number(stat.mtimeMs)
    return { id, pid: Number.NaN, live: age < UNNAMED_GRACE_MS }
  } catch (error) {
    throw storeError(path, `read its lock file ${basename(name)}`, error, name)
  } finally {
    closeSync(fd)
  }
}

/**
 * A writer lock this process holds. A class with its method on the prototype, not a closure: an
 * open store keeps its lock for as long as it is open, so it should cost its two strings and a flag.
 */
export class WriterLock {
  readonly #path: string
  readonly #token: string
  #released = false

  constructor(path: string, token: string) {
    this.#path = path
    this.#token = token
  }

  /** Removes the lock once, and only while it is still this writer's own. */
  release(): void {
    if (this.#released) return
    this.#released = true
    const lockPath = `${this.#path}.lock`
    try {
      if (inspect(this.#path, lockPath)?.id === this.#token) unlinkSync(lockPath)
    } catch {
      // Already gone or unreadable: nothing of ours to release.
    }
  }
}

const sleep = (milliseconds: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, milliseconds)
}
