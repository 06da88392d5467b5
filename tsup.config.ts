import { defineConfig } from 'tsup'

export default defineConfig([
  {
    entry: { index: 'src/index.ts', testing: 'src/testing.ts', openai: 'src/openai.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    target: 'node20',
    // eventsource-parser is ESM-only and tiny: bundled, so the CJS build needs no require(esm).
    noExternal: ['eventsource-parser'],
  },
  {
    // The `steerable` command: ESM only, no types, with a shebang.
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'node20',
    noExternal: ['eventsource-parser'],
    banner: { js: '#!/usr/bin/env node' },
  },
])
