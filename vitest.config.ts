import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'marbles/**/*.spec.ts', 'src/**/*.test.ts'],
    // The JSON report lets .ci/run print one plain "N passed, N failed" closing line.
    reporters: ['default', ['json', { outputFile: '.vitest/report.json' }]],
  },
})
