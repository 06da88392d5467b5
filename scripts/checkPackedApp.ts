/**
 * Part of `npm test`, after the build: what a new user does with the package. It packs the
 * tarball, installs it into a fresh app beside that app's own zod 4 release (4.0.17, the oldest
 * line the peer range allows, not the one steerable is developed with) and the other peer, rxjs,
 * then type-checks the README's first example (the ```ts block under "## Quick start") and its tool
 * example (under "## Tools") against the installed types and runs them, and the same with the
 * README's image send (the block after "Images and files go in the same way"). Then it adds `@ai-sdk/anthropic` and does the same with the model
 * example (under "## Models"). Last, the README's marble spec runs in an app of its own that has
 * only steerable, rxjs, vitest and rxjs-marbles (scripts/packedMarblesApp.ts).
 *
 * It needs the npm registry (the apps install zod, rxjs, typescript, @ai-sdk/anthropic, vitest and
 * rxjs-marbles).
 * STEERABLE_SKIP_PACKED_APP=1 skips it, for a machine without one.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { checkPackedMarblesSpec } from './packedMarblesApp.js'

if (process.env.STEERABLE_SKIP_PACKED_APP === '1') {
  console.log('packed app: skipped (STEERABLE_SKIP_PACKED_APP=1)')
  process.exit(0)
}
const root = join(import.meta.dirname, '..')
const APP_ZOD = '4.0.17'

const readme = readFileSync(join(root, 'README.md'), 'utf8')
const quickStart = readme.slice(readme.indexOf('\n## Quick start'))
const firstExample = /```ts\n([\s\S]*?)```/.exec(quickStart)?.[1]
if (!firstExample) throw new Error('README.md: no ```ts block under "## Quick start"')
const tools = readme.slice(readme.indexOf('\n## Tools'))
const example = /```ts\n([\s\S]*?)```/.exec(tools)?.[1]
if (!example) throw new Error('README.md: no ```ts block under "## Tools"')

const images = readme.slice(readme.indexOf('Images and files go in the same way'))
const imageExample = /```ts\n([\s\S]*?)```/.exec(images)?.[1]
if (!imageExample) throw new Error('README.md: no ```ts block after "Images and files go in the same way"')

const models = readme.slice(readme.indexOf('\n## Models'))
const modelExample = /```ts\n([\s\S]*?)```/.exec(models)?.[1]
if (!modelExample) throw new Error('README.md: no ```ts block under "## Models"')
// The provider package the tests use, so the app gets the release known to work here.
const anthropic = (
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>
  }
).devDependencies['@ai-sdk/anthropic']

const app = mkdtempSync(join(tmpdir(), 'steerable-app-'))
const sh = (command: string, args: string[], cwd = app) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
try {
  const packed = JSON.parse(
    sh('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', app], root),
  ) as [{ filename: string }]
  const tarball = join(app, packed[0].filename)
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }))
  sh('npm', [
    'install',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    tarball,
    `zod@${APP_ZOD}`,
    'rxjs@^7.8',
    'typescript@5.9.3',
    '@types/node@20',
  ])
  writeFileSync(join(app, 'quickStart.ts'), firstExample)
  writeFileSync(join(app, 'tool.ts'), example)
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        outDir: 'out',
        types: ['node'],
        skipLibCheck: false,
      },
      files: ['quickStart.ts', 'tool.ts'],
    }),
  )
  try {
    sh(join(app, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'])
  } catch (error) {
    throw new Error(
      `the README's first or tool example does not type-check in a fresh app with zod ${APP_ZOD}:\n${(error as { stdout?: string }).stdout ?? error}`,
    )
  }
  const answered = sh(process.execPath, [join(app, 'out', 'quickStart.js')])
  if (answered.trim() !== 'A steer corrects the turn that is running.')
    throw new Error(`the README's first example printed something else:\n${answered}`)
  console.log("packed app: the README's first example type-checks and runs")
  const output = sh(process.execPath, [join(app, 'out', 'tool.js')])
  if (!output.includes('user → assistant → tool → user → assistant'))
    throw new Error(`the README's tool example printed something else:\n${output}`)
  console.log(`packed app: the README's tool example type-checks and runs with the app's zod ${APP_ZOD}`)

  writeFileSync(join(app, 'image.ts'), imageExample)
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({ ...JSON.parse(readFileSync(join(app, 'tsconfig.json'), 'utf8')), files: ['image.ts'] }),
  )
  try {
    sh(join(app, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'])
  } catch (error) {
    throw new Error(
      `the README's image send does not type-check in a fresh app:\n${(error as { stdout?: string }).stdout ?? error}`,
    )
  }
  const sentImage = sh(process.execPath, [join(app, 'out', 'image.js')])
  if (!sentImage.includes('user → assistant'))
    throw new Error(`the README's image send printed something else:\n${sentImage}`)
  console.log("packed app: the README's image send type-checks and runs")

  // Then the app adds an AI SDK provider package (which wants a newer zod): the README's model
  // example type-checks against steerable/ai-sdk's declarations, libraries included, and runs.
  // @ai-sdk/provider's own declarations need @types/json-schema when libraries are checked.
  const adds = [`@ai-sdk/anthropic@${anthropic}`, 'zod@^4.1.8', '@types/json-schema@7']
  sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...adds])
  writeFileSync(join(app, 'models.ts'), modelExample)
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({ ...JSON.parse(readFileSync(join(app, 'tsconfig.json'), 'utf8')), files: ['models.ts'] }),
  )
  try {
    sh(join(app, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'])
  } catch (error) {
    throw new Error(
      `the README's model example does not type-check with @ai-sdk/anthropic ${anthropic}:\n${(error as { stdout?: string }).stdout ?? error}`,
    )
  }
  sh(process.execPath, [join(app, 'out', 'models.js')])
  console.log(
    `packed app: the README's model example type-checks and runs with @ai-sdk/anthropic ${anthropic}`,
  )
  checkPackedMarblesSpec(root, tarball)
} finally {
  rmSync(app, { recursive: true, force: true })
}
