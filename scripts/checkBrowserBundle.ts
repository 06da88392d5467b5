/**
 * Part of `npm test`, after the build (R84): the package bundles for a browser. A page that
 * imports every entry a browser can use (`steerable` by its `browser` condition, and
 * `steerable/openai`, `/client`, `/testing`, `/ai-sdk`) is bundled with esbuild
 * (`--platform=browser`) and built with Vite; either failing, warning, or leaving a Node module
 * in its output fails the check. The page reaches the package as an app would, through
 * `node_modules/steerable` (a link to this folder) and the `exports` map.
 *
 * It also prints the size of a page with no tools (`createAgent` and `memoryStore` from
 * `steerable`, bundled and minified by esbuild, then gzipped) and fails above
 * {@link MAX_GZIPPED_BYTES}; docs/performance.md says what is in it. And it builds the browser
 * example as `npm run example:browser` does.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { build as esbuild } from 'esbuild'
import { createLogger, build as viteBuild } from 'vite'
import { buildExample } from './exampleBrowser.js'

/**
 * The most a page with no tools may weigh, gzipped. A ratchet, lowered as the bundle shrinks:
 * every schema on the browser path is `zod/mini` now (69.4 kB measured); 60 kB is the goal,
 * which needs zod's JSON Schema converter (the fallback for tool schemas of zod 4.0 and 4.1,
 * 6.8 kB) out of a page with no tools and a few kB less of steerable (docs/performance.md).
 */
const MAX_GZIPPED_BYTES = 72_000

const root = join(import.meta.dirname, '..')
const app = mkdtempSync(join(tmpdir(), 'steerable-browser-'))
const problems: string[] = []

/** Names of Node's built-ins as a bundle would import them; none may be left in a browser's. */
const nodeModule = /["'](node:[a-z_/]+|fs|path|crypto|os|child_process|net|http)["']/

const page = `export * as steerable from 'steerable'
export * as openai from 'steerable/openai'
export * as client from 'steerable/client'
export * as testing from 'steerable/testing'
export * as aisdk from 'steerable/ai-sdk'
`
const noTools = `import { createAgent, memoryStore } from 'steerable'
export const page = { createAgent, memoryStore }
`
const kB = (bytes: number): string => `${(bytes / 1000).toFixed(1)} kB`
const outputs = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'))

try {
  mkdirSync(join(app, 'node_modules'))
  symlinkSync(root, join(app, 'node_modules', 'steerable'), 'dir')
  writeFileSync(join(app, 'main.js'), page)
  writeFileSync(join(app, 'noTools.js'), noTools)
  writeFileSync(join(app, 'index.html'), '<!doctype html><script type="module" src="./main.js"></script>\n')

  const bundled = await esbuild({
    entryPoints: [join(app, 'main.js')],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    // The package as a dependency is seen from node_modules (esbuild, like an app's bundler,
    // stays quiet there about a chunk imported for its side effects in a side-effect-free package).
    preserveSymlinks: true,
    outdir: join(app, 'esbuild'),
    logLevel: 'silent',
  }).catch((error: { errors?: { text: string }[] }) => {
    problems.push(...(error.errors ?? [{ text: String(error) }]).map((e) => `esbuild: ${e.text}`))
    return undefined
  })
  for (const warning of bundled?.warnings ?? []) problems.push(`esbuild warned: ${warning.text}`)
  if (bundled)
    for (const file of outputs(join(app, 'esbuild')))
      if (nodeModule.test(readFileSync(join(app, 'esbuild', file), 'utf8')))
        problems.push(`esbuild's bundle ${file} imports a Node module`)

  const small = await esbuild({
    entryPoints: [join(app, 'noTools.js')],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    minify: true,
    preserveSymlinks: true,
    write: false,
    logLevel: 'silent',
  }).catch((error: unknown) => {
    problems.push(`esbuild, the page with no tools: ${String(error)}`)
    return undefined
  })
  const minified = small?.outputFiles[0]?.contents
  if (minified) {
    const gzipped = gzipSync(minified).length
    console.log(
      `browser bundle check: a page with no tools is ${kB(minified.length)} minified, ${kB(gzipped)} gzipped (at most ${kB(MAX_GZIPPED_BYTES)})`,
    )
    if (gzipped > MAX_GZIPPED_BYTES)
      problems.push(`a page with no tools is ${kB(gzipped)} gzipped, over ${kB(MAX_GZIPPED_BYTES)}`)
  }

  await buildExample().catch((error: unknown) => problems.push(`npm run example:browser: ${String(error)}`))

  // Vite reports a Node built-in in a browser build as a warning ("externalized for browser
  // compatibility"), so every warning and error it logs is a failure here.
  const logger = createLogger('warn')
  const complain = (message: string) => problems.push(`vite: ${message}`)
  logger.warn = complain
  logger.warnOnce = complain
  logger.error = complain
  await viteBuild({
    root: app,
    configFile: false,
    customLogger: logger,
    logLevel: 'warn',
    resolve: { preserveSymlinks: true },
    build: { outDir: join(app, 'vite'), emptyOutDir: true, minify: false },
  }).catch((error: unknown) => complain(error instanceof Error ? error.message : String(error)))
  for (const file of outputs(join(app, 'vite')))
    if (nodeModule.test(readFileSync(join(app, 'vite', file), 'utf8')))
      problems.push(`vite's build ${file} imports a Node module`)
} finally {
  rmSync(app, { recursive: true, force: true })
}

if (problems.length > 0) {
  console.error(`browser bundle check failed:\n- ${problems.join('\n- ')}`)
  process.exit(1)
}
console.log(
  'browser bundle check: esbuild and Vite bundle every browser entry with no Node module; the browser example builds',
)
