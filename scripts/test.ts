/**
 * `npm test`: the type-check, lint, every test, the doc examples, the build and the package
 * checks. It prints how long each step took and the whole run's wall time, so a slow step shows
 * in every run, CI's included.
 *
 * Two lanes run side by side (scripts/lanes.ts): the test suite (its output shown as it comes),
 * and the checks in order (typecheck, lint, test:docs, build, test:ai-sdk-7, check:package; their
 * output kept, and shown at once when a step fails, the rest when the run ends). The lanes share nothing on
 * disk (the tests build what they run themselves), and most of both is waiting on processes, so
 * on a shared 2-core machine the two finish well before one after the other would. A lane stops
 * at its first failing step; the run fails if either does, and then always ends with its cause:
 * the failing tests and their errors, the failing check's output, the signal that killed a step,
 * or the step that hung past its lane's deadline.
 */
import { rmSync } from 'node:fs'
import { type Lane, type LaneRun, type RunningLane, runLane, seconds } from './lanes.js'
import { vitestFailures } from './vitestFailures.js'

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const npmRun = (name: string, explain?: () => string | undefined) => ({
  name,
  command: npm,
  args: ['run', name],
  ...(explain ? { explain } : {}),
})

/** vitest.config.ts's JSON report, read when the tests fail. */
const REPORT = '.vitest/report.json'
/**
 * Far past a slow run (the unit tests took 11 minutes beside two busy loops): a deadline exists
 * only so a step that hangs is named, and killed, instead of holding CI until its own timeout.
 */
const LANE_DEADLINE_MS = 30 * 60_000

const lanes: readonly Lane[] = [
  {
    name: 'tests',
    steps: [npmRun('test:unit', () => vitestFailures(REPORT))],
    live: true,
    deadlineMs: LANE_DEADLINE_MS,
  },
  {
    name: 'checks',
    steps: ['typecheck', 'lint', 'test:docs', 'build', 'test:ai-sdk-7', 'check:package'].map((name) =>
      npmRun(name),
    ),
    live: false,
    deadlineMs: LANE_DEADLINE_MS,
  },
]

const write = (text: string) => process.stdout.write(text)
const started = Date.now()
// A report left by an earlier run must not stand in for this one's.
rmSync(REPORT, { force: true })
const running: RunningLane[] = lanes.map((lane) => runLane(lane, write))
// The steps run in process groups of their own, which a Ctrl-C or CI's stop does not reach: this
// process stops them, and still prints what ran and why the run ended. A second signal exits.
let signalled = false
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.on(signal, () => {
    if (signalled) process.exit(1)
    signalled = true
    for (const lane of running) lane.stop(`npm test received ${signal}`)
  })
const runs: readonly LaneRun[] = await Promise.all(running.map((lane) => lane.done))

// What the kept lanes printed in their passing steps (a failed step's output is shown already).
for (const [i, run] of runs.entries())
  if (!lanes[i]?.live)
    for (const step of run.failure === undefined ? run.steps : run.steps.slice(0, -1))
      if (step.output !== '') write(`\n${step.output}`)

const total = Date.now() - started
const clock = `${Math.floor(total / 60_000)} min ${Math.round((total % 60_000) / 1000)} s`
const failures = runs.flatMap((run) => (run.failure === undefined ? [] : [run.failure]))
console.log(
  `\nnpm test: ${runs.flatMap((run) => run.steps.map((s) => `${s.name} ${seconds(s.ms)}`)).join(', ')}`,
)
if (failures.length === 0) console.log(`npm test: passed in ${clock}`)
else console.log(`npm test: FAILED after ${clock}\n\n${failures.join('\n\n')}`)
process.exit(failures.length > 0 ? 1 : 0)
