import { defineConfig, type Options } from 'tsup'
import { browserEntry } from './scripts/browserEntry.js'

const entries = {
  index: 'src/index.ts',
  testing: 'src/testing.ts',
  openai: 'src/openai.ts',
  aisdk: 'src/aisdk.ts',
  timeline: 'src/timeline.ts',
  client: 'src/client.ts',
  postgres: 'src/postgres.ts',
  node: 'src/node.ts',
}

const library: Options = {
  dts: { entry: entries },
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
}

export default defineConfig([
  // The ESM build holds the terminal app too (`cli`), so the app shares the entries' chunks:
  // bundled on its own it carried a second copy of the engine, a quarter of the package.
  // It holds the browser entry too (the `browser` condition of `.`): a copy of the index whose
  // fileStore is a stand-in (scripts/browserEntry.ts), sharing the other entries' chunks, so
  // steerable/openai's errors are the browser entry's classes, and no chunk it loads imports a
  // Node module. Its types are the index's: the stand-in has the same type.
  {
    ...library,
    entry: { ...entries, cli: 'src/cli.ts', browser: 'src/browser.ts' },
    format: ['esm'],
    esbuildPlugins: [browserEntry],
  },
  { ...library, entry: entries, format: ['cjs'] },
  {
    // The `steerable` command: a shebang and an import of the CLI module beside it.
    entry: { steerable: 'src/bin.ts' },
    format: ['esm'],
    sourcemap: false,
    target: 'node20',
    external: [/^\.\/cli\.js$/],
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
