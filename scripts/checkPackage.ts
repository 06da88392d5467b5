/**
 * Part of `npm test`, after the build: the tarball `npm pack` would publish holds what users need
 * and nothing else, and the engines the package promises match what it ships.
 *
 * - the LICENSE that package.json names is in it, and the serve page's script; no source maps;
 * - it stays small (under 500 kB packed; see docs/decisions.md, "Packaging and adoption");
 * - each error class is defined once in the CommonJS build (entries share it), so `instanceof`
 *   holds across entries under `require` as under `import`;
 * - every dependency bundled into dist/ and every runtime dependency runs on the Node versions
 *   of our own `engines` (their `engines.node` allows our lowest version).
 */
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  license: string
  engines: { node: string }
  dependencies?: Record<string, string>
}
const problems: string[] = []

const [pack] = JSON.parse(
  execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' }),
) as [{ size: number; files: { path: string }[] }]
const files = pack.files.map((f) => f.path)
if (!files.includes('LICENSE')) problems.push(`package.json says ${pkg.license}, but LICENSE is not packed`)
// `steerable serve` reads its page's script from beside the command.
if (!files.includes('dist/webapp.js')) problems.push('dist/webapp.js (the serve page) is not packed')
const maps = files.filter((f) => f.endsWith('.map'))
if (maps.length > 0) problems.push(`source maps are packed: ${maps.join(', ')}`)
if (pack.size > 500_000) problems.push(`the tarball is ${pack.size} bytes packed (over 500 kB)`)

const definedIn = new Map<string, string[]>()
for (const file of readdirSync(join(root, 'dist')).filter((f) => f.endsWith('.cjs'))) {
  const text = readFileSync(join(root, 'dist', file), 'utf8')
  for (const [, name] of text.matchAll(/name = "(\w+Error)"/g))
    definedIn.set(name!, [...(definedIn.get(name!) ?? []), file])
}
for (const [name, files] of definedIn)
  if (new Set(files).size > 1) problems.push(`${name} is defined in ${[...new Set(files)].join(' and ')}`)

/** The lowest Node version a range like ">=20.19" allows. */
const lowest = (range: string): number[] => {
  const match = /(\d+)\.?(\d+)?\.?(\d+)?/.exec(range)
  return match ? [1, 2, 3].map((i) => Number(match[i] ?? 0)) : [0, 0, 0]
}
const atLeast = (a: number[], b: number[]): boolean => {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0)
  return true
}
const ours = lowest(pkg.engines.node)
// Bundled into dist/ (tsup's noExternal), so its engines are ours too.
const shipped = ['eventsource-parser', ...Object.keys(pkg.dependencies ?? {})]
for (const name of shipped) {
  const dep = JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as {
    version: string
    engines?: { node?: string }
  }
  const needs = dep.engines?.node
  if (needs && !atLeast(ours, lowest(needs)))
    problems.push(`${name} ${dep.version} wants Node ${needs}; the package promises ${pkg.engines.node}`)
}

if (problems.length > 0) {
  console.error(`package check failed:\n- ${problems.join('\n- ')}`)
  process.exit(1)
}
console.log(`package check: ${files.length} files, ${pack.size} bytes packed, engines consistent`)
