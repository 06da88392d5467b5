import { defineConfig } from 'tsup'

export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      testing: 'src/testing.ts',
      openai: 'src/openai.ts',
      aisdk: 'src/aisdk.ts',
      timeline: 'src/timeline.ts',
      client: 'src/client.ts',
      postgres: 'src/postgres.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    // No source maps in the package: the output is plain, unminified ESM and CommonJS that a
    // stack trace can be read in as it is; maps with their embedded sources were 62% of the
    // tarball and point at src/, which is not shipped.
    sourcemap: false,
    target: 'node20',
    // eventsource-parser is ESM-only and tiny: bundled, so the CJS build needs no require(esm).
    noExternal: ['eventsource-parser'],
    // Shared code in shared chunks for CommonJS too (ESM splits by default): an error class that
    // steerable/postgres or steerable/openai throws is then the very class the main entry
    // exports, so `instanceof` works under require as under import.
    splitting: true,
  },
  {
    // The `steerable` command: ESM only, no types, with a shebang.
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    sourcemap: false,
    target: 'node20',
    noExternal: ['eventsource-parser'],
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    // The page of `steerable serve`: one browser script with rxjs inside, read by the command
    // from beside it (dist/webapp.js) and inlined into the page, so the page loads nothing else.
    entry: { webapp: 'src/web/app/main.ts' },
    format: ['iife'],
    platform: 'browser',
    target: 'es2020',
    minify: true,
    sourcemap: false,
    noExternal: [/.*/],
    outExtension: () => ({ js: '.js' }),
  },
])
