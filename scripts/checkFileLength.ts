/**
 * Part of `npm run lint`: no source file in `src/` has more than 250 lines (CONTRIBUTING). A file
 * that grows past that holds more than one thing; split it by what its parts are. Prints each
 * file over the limit with its length, and fails when there is one, or when a file allowed below
 * is no longer over it.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

const MAX_LINES = 250
const root = join(import.meta.dirname, '..')

/**
 * Files still over the limit, by path from the repository root. Add nothing here: split the file
 * instead.
 */
const allowed = new Set<string>([])

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.(ts|tsx|js|mjs|cjs)$/.test(entry.name) ? [path] : []
  })

/** Lines as an editor numbers them: a final newline does not start another line. */
const lineCount = (text: string): number => text.split('\n').length - (text.endsWith('\n') ? 1 : 0)

const lengths = sourceFiles(join(root, 'src')).map((path) => ({
  file: relative(root, path).split('\\').join('/'),
  lines: lineCount(readFileSync(path, 'utf8')),
}))
const tooLong = lengths.filter(({ file, lines }) => lines > MAX_LINES && !allowed.has(file))
// An allowed file that was split (or removed) leaves the list, so the list cannot hide a new one.
const stale = [...allowed].filter((file) => !lengths.some((f) => f.file === file && f.lines > MAX_LINES))

for (const { file, lines } of tooLong) {
  console.error(`${file}: ${lines} lines, more than ${MAX_LINES}; split it by what its parts are`)
}
for (const file of stale) {
  console.error(
    `${file} is no longer over ${MAX_LINES} lines: remove it from the allowed list in scripts/checkFileLength.ts`,
  )
}
if (tooLong.length > 0 || stale.length > 0) process.exitCode = 1
