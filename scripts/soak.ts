/**
 * Soak run of the reliability property: `npm run soak` runs 100,000 random schedules
 * (RELIABILITY_RUNS overrides), in batches of at most 10,000, each batch with its own seed, and
 * prints `soak: N runs passed`. A failure prints fast-check's report (seed, path, the shrunk
 * schedule as a script and the broken invariants) and exits with code 1.
 */
import fc from 'fast-check'
import { reliabilityParameters, reliabilityProperty } from '../test/reliability/model.js'

const total = Number(process.env.RELIABILITY_RUNS ?? 100_000)
const BATCH = 10_000

const main = async (): Promise<void> => {
  const started = Date.now()
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
}

void main()
