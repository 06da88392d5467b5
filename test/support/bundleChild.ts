import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { type Child, type ChildOptions, startChild } from './childProcesses.js'

export type ChildProgram = {
  /** The bundle, for `node <file>`. */
  readonly file: string
  /**
   * Runs it with plain `node` through the harness (childProcesses.ts): `env` on top of this
   * process's environment, the program's deadline unless the options give one.
   */
  start(options?: StartOptions): Child
  /** Deletes the bundle. */
  remove(): void
}

export type StartOptions = Partial<Omit<ChildOptions, 'env'>> & {
  readonly env?: Record<string, string>
  readonly args?: readonly string[]
}

/**
 * Bundles a child program (`name` in test/support/children/, or the path of a `.ts` entry) into
 * one file with esbuild (the bundler under tsup and tsx), to run with plain `node`: starting it
 * through tsx costs about four times more per spawn, which tests with dozens of spawns cannot
 * afford. Its folder is readable to all, so a child run as an unprivileged user reaches it.
 * `deadlineMs` is each child's unless its start says otherwise.
 */
export const bundleChild = async (
  name: string,
  { deadlineMs }: { deadlineMs: number },
): Promise<ChildProgram> => {
  const entry = name.endsWith('.ts') ? name : fileURLToPath(new URL(`./children/${name}.ts`, import.meta.url))
  const dir = mkdtempSync(join(tmpdir(), 'steerable-child-'))
  chmodSync(dir, 0o755)
  const file = join(dir, `${name.split('/').at(-1)?.replace(/\.ts$/, '')}.mjs`)
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: file,
    logLevel: 'silent',
    // pg-native is an optional part of pg that is not installed.
    external: ['pg-native'],
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  })
  return {
    file,
    start: ({ env = {}, args = [], ...options } = {}) =>
      startChild(process.execPath, [file, ...args], {
        deadlineMs,
        ...options,
        env: { ...process.env, ...env },
      }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}
