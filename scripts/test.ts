/**
 * `npm test`: the type-check, lint, every test, the doc examples, the build and the package
 * checks. It prints how long each step took and the whole run's wall time, so a slow step shows
 * in every run, CI's included.
 *
 * Two lanes run side by side: the test suite (its output shown as it comes), and the checks in
 * order (typecheck, lint, test:docs, build, check:package; their output shown when the lane
 * ends). The lanes share nothing on disk (the tests build what they run themselves), and most
 * of both is waiting on processes, so on a shared 2-core machine the two finish well before one
 * after the other would. A lane stops at its first failing step; the run fails if either does.
 */
import { spawn } from 'node:child_process'

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

type Lane = { readonly timings: string[]; failed?: string; output: string }

const runLane = async (steps: readonly string[], live: boolean): Promise<Lane> => {
  const lane: Lane = { timings: [], output: '' }
  for (const step of steps) {
    const started = Date.now()
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(npm, ['run', step], {
        stdio: ['ignore', live ? 'inherit' : 'pipe', live ? 'inherit' : 'pipe'],
      })
      child.stdout?.on('data', (chunk: Buffer) => (lane.output += chunk))
      child.stderr?.on('data', (chunk: Buffer) => (lane.output += chunk))
      child.on('close', resolve)
    })
    lane.timings.push(`${step} ${seconds(Date.now() - started)}`)
    if (code !== 0) {
      lane.failed = step
      break
    }
  }
  return lane
}

const started = Date.now()
const [tests, checks] = await Promise.all([
  runLane(['test:unit'], true),
  runLane(['typecheck', 'lint', 'test:docs', 'build', 'check:package'], false),
])
process.stdout.write(`\n${checks.output}`)
const total = Date.now() - started
const clock = `${Math.floor(total / 60_000)} min ${Math.round((total % 60_000) / 1000)} s`
const failed = [tests.failed, checks.failed].filter((step) => step !== undefined)
console.log(`\nnpm test: ${[...tests.timings, ...checks.timings].join(', ')}`)
console.log(
  failed.length > 0
    ? `npm test: ${failed.join(' and ')} failed after ${clock}`
    : `npm test: passed in ${clock}`,
)
process.exit(failed.length > 0 ? 1 : 0)
