import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'marbles/**/*.spec.ts', 'src/**/*.test.ts'],
  },
})
