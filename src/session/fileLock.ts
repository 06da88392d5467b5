import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import { SessionLockedError } from './storeErrors.js'

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Takes the writer lock of a session log: `<path>.lock` holding the owner's pid, created
 * exclusively. A lock whose owner is no longer alive (a crashed writer) is taken over. Returns
 * the release function.
 */
export const acquireLock = (path: string): (() => void) => {
  const lockPath = `${path}.lock`
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx')
      writeSync(fd, String(process.pid))
      closeSync(fd)
      let released = false
      return () => {
        if (released) return
        released = true
        try {
          unlinkSync(lockPath)
        } catch {
          // Already gone: nothing to release.
        }
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const pid = Number.parseInt(readFileSync(lockPath, 'utf8'), 10)
      if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) throw new SessionLockedError(path, pid)
      unlinkSync(lockPath) // stale: its writer died without releasing it
    }
  }
  throw new SessionLockedError(path, Number.NaN)
}
