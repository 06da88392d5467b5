/**
 * Part of `npm test`, after the build (R84): the package bundles for a browser. A page that
 * imports every entry a browser can use (`steerable` by its `browser` condition, and
 * `steerable/openai`, `/client`, `/testing`, `/ai-sdk`) is bundled with esbuild
 * (`--platform=browser`) and built with Vite; either failing, warning, or leaving a Node module
 * in its output fails the check. The page reaches the package as an app would, through
 * `node_modules/steerable` (a link to this folder) and the `exports` map.
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
import { build as esbuild } from 'esbuild'
import { createLogger, build as viteBuild } from 'vite'

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
const outputs = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'))

try {
  mkdirSync(join(app, 'node_modules'))
  symlinkSync(root, join(app, 'node_modules', 'steerable'), 'dir')
  writeFileSync(join(app, 'main.js'), page)
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
console.log('browser bundle check: esbuild and Vite bundle every browser entry with no Node module')
