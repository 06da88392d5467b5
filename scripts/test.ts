/**
 * `npm test`: the type-check, lint, every test, the doc examples, the build and the package
 * checks, in that order, stopping at the first that fails. It prints how long each step took
 * and the whole run's wall time, so a slow step shows in every run, CI's included.
 */
import { spawnSync } from 'node:child_process'

const steps = ['typecheck', 'lint', 'test:unit', 'test:docs', 'build', 'check:package'] as const
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
const timings: string[] = []
const started = Date.now()
let failed: string | undefined
for (const step of steps) {
  const t = Date.now()
  const run = spawnSync(npm, ['run', step], { stdio: 'inherit' })
  timings.push(`${step} ${seconds(Date.now() - t)}`)
  if (run.status !== 0) {
    failed = step
    break
  }
}
const total = Date.now() - started
const clock = `${Math.floor(total / 60_000)} min ${Math.round((total % 60_000) / 1000)} s`
console.log(`\nnpm test: ${timings.join(', ')}`)
console.log(failed ? `npm test: ${failed} failed after ${clock}` : `npm test: passed in ${clock}`)
process.exit(failed ? 1 : 0)
