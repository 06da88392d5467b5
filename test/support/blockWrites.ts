import { mkdirSync, renameSync, rmdirSync } from 'node:fs'

/**
 * Makes writes to the file at `path` fail until `unblock()`: the file is moved aside and a
 * directory takes its name, so opening it for writing fails with `EISDIR` (root ignores file
 * permissions, so a read-only mode would not do). A file store opens its files for each write
 * and holds no descriptor while idle, so the next write meets the directory.
 */
export const blockWrites = (path: string): (() => void) => {
  const aside = `${path}.blocked`
  renameSync(path, aside)
  mkdirSync(path)
  return () => {
    rmdirSync(path)
    renameSync(aside, path)
  }
}
