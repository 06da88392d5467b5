import { join } from 'node:path'
import { build, type Plugin } from 'esbuild'
import { browserEntry } from '../../scripts/browserEntry.js'

const root = join(import.meta.dirname, '..', '..')

/** `steerable` and its subpaths resolved to the sources, as the package's browser build maps them. */
const steerableSources: Plugin = {
  name: 'steerable-sources',
  setup(build) {
    const entries: Record<string, string> = {
      steerable: 'src/browser.ts',
      'steerable/openai': 'src/openai.ts',
      'steerable/client': 'src/client.ts',
      'steerable/testing': 'src/testing.ts',
    }
    build.onResolve({ filter: /^steerable(\/.*)?$/ }, (args) => {
      const entry = entries[args.path]
      return entry ? { path: join(root, entry) } : { errors: [{ text: `no browser entry ${args.path}` }] }
    })
  },
}

export type BrowserBundle = {
  readonly code: string
  /** The files that went into it, relative to the repository (`node:…` for a Node module). */
  readonly inputs: readonly string[]
  readonly warnings: readonly string[]
}

/**
 * Bundles `entry` (a file, or `contents` in the repository's folder) for a browser, as the
 * package's browser build does (scripts/browserEntry.ts): esbuild with `platform: 'browser'`, so a
 * Node module anywhere in the graph fails the build.
 */
export const bundleForBrowser = async (
  entry: { file: string } | { contents: string },
): Promise<BrowserBundle> => {
  const result = await build({
    ...('file' in entry
      ? { entryPoints: [join(root, entry.file)] }
      : { stdin: { contents: entry.contents, resolveDir: root, loader: 'ts' } }),
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    metafile: true,
    outdir: join(root, '.artifacts', 'browser-bundle'),
    plugins: [steerableSources, browserEntry],
    logLevel: 'silent',
  })
  return {
    code: result.outputFiles[0]?.text ?? '',
    inputs: Object.keys(result.metafile.inputs),
    warnings: result.warnings.map((w) => w.text),
  }
}
