import { existsSync } from 'node:fs'
import { dirname } from 'node:path'
import { codeOf, SessionStoreError } from './storeErrors.js'

/**
 * `error` (thrown while the store tried to `action`, on `target`: the log, its lock file …) as a
 * `SessionStoreError` that names the log and says what to do. `retried` adds that nothing was
 * lost and the write is tried again (for checkpoint writes).
 */
export const storeError = (
  path: string,
  action: string,
  error: unknown,
  target = path,
  retried = false,
): SessionStoreError => {
  if (error instanceof SessionStoreError) return error
  const code = codeOf(error)
  const dir = dirname(target)
  const advice =
    code === 'ENOENT'
      ? existsSync(dir)
        ? `${target} was removed while the store was open: the store writes nothing else in its place`
        : `the directory ${dir} does not exist: create the directory first`
      : code === 'ENOTDIR'
        ? `a part of ${dir} is not a directory: fix the path`
        : code === 'EACCES' || code === 'EPERM'
          ? `permission denied: check the permissions of ${path} and of its directory ${dirname(path)} ` +
            '(the store creates its lock file there)'
          : code === 'EISDIR'
            ? target === path
              ? `${path} is a directory: pass the path of a file`
              : `${target} is a directory: remove it`
            : code === 'EROFS'
              ? 'the file system is read-only: put the session on a writable one'
              : code === 'ENOSPC' || code === 'EDQUOT'
                ? 'the disk (or quota) is full: free some space'
                : code === 'EMFILE' || code === 'ENFILE'
                  ? 'too many open files: close some, or raise the limit'
                  : `check that ${path} is a file this process can read and write`
  const again = retried
    ? '; nothing was lost: the events stay in memory and the next checkpoint writes them'
    : ''
  return new SessionStoreError(
    path,
    `${path}: cannot ${action} (${code ?? describe(error)}); ${advice}${again}`,
    error,
  )
}

const describe = (error: unknown): string => {
  try {
    return error instanceof Error ? error.message : String(error)
  } catch {
    return 'unknown error'
  }
}
