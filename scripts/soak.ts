/**
 * Soak run of the reliability property: `npm run soak` first replays the regressions of
 * test/reliability/regressions.ts (each one named, pass or fail), then runs 100,000 random
 * schedules (RELIABILITY_RUNS overrides), in batches of at most 10,000, each batch with its own
 * seed, and prints `soak: N runs passed`. Then the approvals property (V9, test/reliability/
 * approvals/, whose regressions are replayed with the others) runs 10,000 schedules the same way
 * (APPROVAL_RUNS overrides) and prints `soak: N approval runs passed`; then the history property
 * (R74–R77, test/reliability/history/) 10,000 times (HISTORY_RUNS overrides), printing
 * `soak: N history runs passed`. A failing random run prints fast-check's report (seed, path, the
 * shrunk schedule as a script and the broken invariants) and stops the soak; any failure exits
 * with code 1. A regression that still fails (a bug not fixed yet) does not stop the random runs:
 * they look for the next one.
 */
import fc from 'fast-check'
import {
  approvalParameters,
  approvalProperty,
  checkApprovalSchedule,
} from '../test/reliability/approvals/property.js'
import { APPROVAL_REGRESSIONS } from '../test/reliability/approvals/regressions.js'
import { historyParameters, historyProperty } from '../test/reliability/history/property.js'
import { HISTORY_REGRESSIONS } from '../test/reliability/history/regressions.js'
import { checkSchedule, reliabilityParameters, reliabilityProperty } from '../test/reliability/model.js'
import { REGRESSIONS } from '../test/reliability/regressions.js'

const total = Number(process.env.RELIABILITY_RUNS ?? 100_000)
const approvalTotal = Number(process.env.APPROVAL_RUNS ?? 10_000)
const historyTotal = Number(process.env.HISTORY_RUNS ?? 10_000)
const BATCH = 10_000

const replayRegressions = async (): Promise<number> => {
  let failed = 0
  // The approvals property's regressions run here too, so that the soak names them all first.
  const replays = [
    ...REGRESSIONS.map(({ name, schedule }) => ({ name, check: () => checkSchedule(schedule) })),
    ...APPROVAL_REGRESSIONS.map(({ name, schedule }) => ({
      name,
      check: () => checkApprovalSchedule(schedule),
    })),
    ...HISTORY_REGRESSIONS.map(({ name, schedule }) => ({ name, check: () => checkSchedule(schedule) })),
  ]
  for (const { name, check } of replays) {
    try {
      await check()
      console.log(`soak: regression passes: ${name}`)
    } catch (error) {
      failed++
      const first = error instanceof Error ? error.message.split('\n').slice(0, 3).join(' | ') : String(error)
      console.log(`soak: regression FAILS: ${name}\n  ${first}`)
    }
  }
  return failed
}

/** Runs `property` `runs` times in seeded batches; prints progress; exits 1 at the first failure. */
const soak = async <T>(
  name: string,
  runs: number,
  check: (numRuns: number, seed: number) => Promise<fc.RunDetails<T>>,
): Promise<number> => {
  const started = Date.now()
  let passed = 0
  while (passed < runs) {
    const numRuns = Math.min(BATCH, runs - passed)
    const seed = Date.now() ^ (Math.random() * 0x100000000)
    const result = await check(numRuns, seed)
    if (result.failed) {
      console.error(fc.defaultReportMessage(result))
      console.error(
        result.errorInstance instanceof Error ? result.errorInstance.message : result.errorInstance,
      )
      console.error(`soak: failed after ${passed + result.numRuns} ${name}runs`)
      process.exit(1)
    }
    passed += numRuns
    console.log(
      `soak: ${passed}/${runs} ${name}runs (seed ${seed}, ${((Date.now() - started) / 1000).toFixed(1)} s)`,
    )
  }
  return passed
}

const main = async (): Promise<void> => {
  const failedRegressions = await replayRegressions()
  const passed = await soak('', total, (numRuns, seed) =>
    fc.check(reliabilityProperty(), reliabilityParameters(numRuns, seed)),
  )
  console.log(`soak: ${passed} runs passed`)
  const approvals = await soak('approval ', approvalTotal, (numRuns, seed) =>
    fc.check(approvalProperty(), approvalParameters(numRuns, seed)),
  )
  console.log(`soak: ${approvals} approval runs passed`)
  const history = await soak('history ', historyTotal, (numRuns, seed) =>
    fc.check(historyProperty(), historyParameters(numRuns, seed)),
  )
  console.log(`soak: ${history} history runs passed`)
  if (failedRegressions > 0) {
    console.error(`soak: ${failedRegressions} regressions fail`)
    process.exit(1)
  }
}

void main()
