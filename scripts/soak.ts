/**
 * Soak run of the reliability property: `npm run soak` first replays the regressions of
 * test/reliability/regressions.ts (each one named, pass or fail), then runs 100,000 random
 * schedules (RELIABILITY_RUNS overrides), in batches of at most 10,000, each batch with its own
 * seed, and prints `soak: N runs passed`. A failing random run prints fast-check's report (seed,
 * path, the shrunk schedule as a script and the broken invariants) and stops the soak; any failure
 * exits with code 1. A regression that still fails (a bug not fixed yet) does not stop the random
 * runs: they look for the next one.
 */
import fc from 'fast-check'
import { checkSchedule, reliabilityParameters, reliabilityProperty } from '../test/reliability/model.js'
import { REGRESSIONS } from '../test/reliability/regressions.js'

const total = Number(process.env.RELIABILITY_RUNS ?? 100_000)
const BATCH = 10_000

const replayRegressions = async (): Promise<number> => {
  let failed = 0
  for (const { name, schedule } of REGRESSIONS) {
    try {
      await checkSchedule(schedule)
      console.log(`soak: regression passes: ${name}`)
    } catch (error) {
      failed++
      const first = error instanceof Error ? error.message.split('\n').slice(0, 3).join(' | ') : String(error)
      console.log(`soak: regression FAILS: ${name}\n  ${first}`)
    }
  }
  return failed
}

const main = async (): Promise<void> => {
  const started = Date.now()
  const failedRegressions = await replayRegressions()
  let passed = 0
  while (passed < total) {
    const numRuns = Math.min(BATCH, total - passed)
    const seed = Date.now() ^ (Math.random() * 0x100000000)
    const result = await fc.check(reliabilityProperty(), reliabilityParameters(numRuns, seed))
    if (result.failed) {
      console.error(fc.defaultReportMessage(result))
      console.error(
        result.errorInstance instanceof Error ? result.errorInstance.message : result.errorInstance,
      )
      console.error(`soak: failed after ${passed + result.numRuns} runs`)
      process.exit(1)
    }
    passed += numRuns
    console.log(
      `soak: ${passed}/${total} runs (seed ${seed}, ${((Date.now() - started) / 1000).toFixed(1)} s)`,
    )
  }
  console.log(`soak: ${passed} runs passed`)
  if (failedRegressions > 0) {
    console.error(`soak: ${failedRegressions} of ${REGRESSIONS.length} regressions fail`)
    process.exit(1)
  }
}

void main()
