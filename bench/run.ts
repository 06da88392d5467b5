/**
 * Runs every benchmark script in bench/ (each `*.ts` except this one), one child process each,
 * in name order: `npm run bench`. Exits non-zero when a script fails.
 */
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const self = basename(fileURLToPath(import.meta.url))
const scripts = readdirSync(here)
  .filter((name) => name.endsWith('.ts') && name !== self)
  .sort()

let failed = 0
for (const name of scripts) {
  console.log(`\n# ${name}\n`)
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(here, name)], {
    stdio: 'inherit',
    cwd: join(here, '..'),
  })
  if (result.status !== 0) {
    failed++
    console.error(`${name} failed (${result.signal ?? `exit ${result.status}`})`)
  }
}
process.exitCode = failed > 0 ? 1 : 0
