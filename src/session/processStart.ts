import { readFileSync } from 'node:fs'

/**
 * When process `pid` started, as Linux counts it (`/proc/<pid>/stat` field 22, clock ticks since
 * boot): with the pid it names one process, so a pid the system later gives to another process is
 * not mistaken for the first. `'zombie'` when the process has exited (and will never release
 * anything) but was not reaped yet; `undefined` where `/proc` does not tell (other systems, a
 * process `/proc` hides from this user).
 */
export const processStart = (pid: number): string | 'zombie' | undefined => {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
  } catch {
    return undefined
  }
  // The command name (field 2) is in parentheses and may hold spaces or parentheses itself.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  if (fields[0] === 'Z' || fields[0] === 'X') return 'zombie'
  const start = fields[19]
  return start && /^\d+$/.test(start) ? start : undefined
}

/**
 * Whether the process that wrote `pid` (and `start`, when it was known) still runs. A process of
 * another user counts as running (the signal check says EPERM, not ESRCH); when `/proc` does not
 * tell its start time, the pid alone decides.
 */
export const isRunning = (pid: number, start: string | undefined): boolean => {
  try {
    process.kill(pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  const now = processStart(pid)
  if (now === 'zombie') return false
  return start === undefined || now === undefined || now === start
}
