/**
 * The esbuild plugin behind the browser build of `steerable` (src/browser.ts), for tsup and for
 * the tests that bundle a page.
 *
 * src/browser.ts re-exports `./index.js` and replaces its `fileStore` with a stand-in. A plain
 * build would still pull the real file store (and `node:fs`, `node:path`, `node:crypto`) into the
 * browser entry's graph, through index.ts. This plugin compiles the index.ts that src/browser.ts
 * imports as a copy of its own (in the `browser` namespace) whose `./session/fileStore.js` is the
 * stand-in; every other module is the same one the Node entries use, so in a split build the
 * browser entry shares their chunks (one class per error, `instanceof` holds across entries) and
 * never imports a chunk of the file store's.
 */
import { readFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { Plugin } from 'esbuild'

const NAMESPACE = 'steerable-browser'

export const browserEntry: Plugin = {
  name: 'steerable-browser-entry',
  setup(build) {
    build.onResolve({ filter: /^\.\/index\.js$/ }, (args) =>
      basename(args.importer) === 'browser.ts' && basename(args.resolveDir) === 'src'
        ? { path: join(args.resolveDir, 'index.ts'), namespace: NAMESPACE }
        : undefined,
    )
    build.onResolve({ filter: /^\.\/session\/fileStore\.js$/, namespace: NAMESPACE }, (args) => ({
      path: join(args.resolveDir, 'session', 'fileStoreInBrowser.ts'),
    }))
    build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
      contents: readFileSync(args.path, 'utf8'),
      loader: 'ts',
      resolveDir: dirname(args.path),
    }))
  },
}
