import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { defineConfig, type Plugin } from 'vitest/config'

/**
 * The tests that need a PostgreSQL server are named `*.pg.test.ts`, wherever they live (a test
 * sits in the folder of the code it exercises: test/postgres/owner/, test/cli/, …): their project
 * starts one (only when they run). Every other test, the pure tests of src/postgres/'s rooms
 * included, needs none and runs with the rest.
 */
const postgres = ['test/**/*.pg.test.ts']

/**
 * With `STEERABLE_AI_SDK_LINE` set to a directory (`npm run test:ai-sdk-7` sets scripts/ai-sdk-7),
 * the tests import `ai` and `@ai-sdk/*` from there, resolved as from a file in it: the AI SDK line
 * of Node 22 (ai 7), which the devDependencies leave out because it declares Node 22.
 */
const aiSdkLine = (dir: string | undefined): Plugin[] =>
  dir === undefined
    ? []
    : [
        {
          name: 'steerable-ai-sdk-line',
          enforce: 'pre',
          resolveId(source) {
            if (!/^(ai|@ai-sdk\/[^/]+)(\/.*)?$/.test(source)) return null
            return this.resolve(source, join(dir, 'package.json'), { skipSelf: true })
          },
        },
      ]

export default defineConfig({
  plugins: aiSdkLine(process.env.STEERABLE_AI_SDK_LINE),
  test: {
    // Most test files wait on other processes, a server, a browser or the disk, not on the CPU:
    // one file per core would leave the cores idle through each wait (on 2 cores, vitest's
    // default runs one file at a time). One more worker than cores keeps them busy.
    maxWorkers: availableParallelism() + 1,
    // The JSON report lets .ci/run print one plain "N passed, N failed" closing line.
    reporters: ['default', ['json', { outputFile: '.vitest/report.json' }]],
    projects: [
      {
        extends: true,
        test: {
          name: 'steerable',
          include: ['test/**/*.test.ts', 'marbles/**/*.spec.ts', 'src/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...postgres],
          // Many tests write files or start processes: on a loaded shared machine 5 s (vitest's
          // default) was passed by one that takes 0.5 s alone. A defect still fails, later.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: postgres,
          globalSetup: ['test/support/postgresGlobalSetup.ts'],
          // Round trips to a real server (and child processes) on a loaded 2-core machine.
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
})
