/**
 * Part of the packed-tarball check (scripts/checkPackedApp.ts): the README's marble spec (the
 * ```ts test block under "## Test it with marbles") in a fresh app of its own that installs only
 * the tarball, rxjs, vitest and rxjs-marbles, as the README says a consumer needs, and runs it
 * with vitest. npm adds the package's required peers (zod) by itself, as it does for a consumer.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * In a directory of its own, not inside the other app: Node would find that app's packages
 * (typescript, zod, @types/node …) up the tree, and the spec would pass on what it lacks.
 */
export const checkPackedMarblesSpec = (root: string, tarball: string): void => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  const section = readme.slice(readme.indexOf('\n## Test it with marbles'))
  const spec = /```ts test\n([\s\S]*?)```/.exec(section)?.[1]
  if (!spec) throw new Error('README.md: no ```ts test block under "## Test it with marbles"')
  // The releases the repository's own marble specs run on.
  const dev = (
    JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>
    }
  ).devDependencies
  const app = mkdtempSync(join(tmpdir(), 'steerable-marbles-app-'))
  try {
    run(app, spec, tarball, dev)
  } finally {
    rmSync(app, { recursive: true, force: true })
  }
}

const run = (app: string, spec: string, tarball: string, dev: Record<string, string>) => {
  const sh = (command: string, args: string[]) =>
    execFileSync(command, args, { cwd: app, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'marbles-app', private: true, type: 'module' }),
  )
  sh('npm', [
    'install',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    tarball,
    'rxjs@^7.8',
    `vitest@${dev.vitest}`,
    `rxjs-marbles@${dev['rxjs-marbles']}`,
  ])
  writeFileSync(join(app, 'steer.test.ts'), spec)
  try {
    sh(join(app, 'node_modules/.bin/vitest'), ['run', '--root', app])
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string }
    throw new Error(`the README's marble spec fails in a fresh app:\n${stdout ?? ''}${stderr ?? error}`)
  }
  console.log(
    `packed app: the README's marble spec passes with only steerable, rxjs, vitest ${dev.vitest} and rxjs-marbles ${dev['rxjs-marbles']} installed`,
  )
}
