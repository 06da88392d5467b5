import { join } from 'node:path'
import { build } from 'esbuild'
import { type Child, startChild } from './childProcesses.js'

/**
 * Builds the `steerable` command into `dir` as the package builds it: the command, and the page's
 * script beside it (`webapp.js`, which `serve` inlines).
 */
export const buildServeCommand = async (dir: string): Promise<string> => {
  const common = { bundle: true, target: 'es2020', logLevel: 'silent' } as const
  const cli = join(dir, 'cli.mjs')
  await build({ ...common, entryPoints: ['src/cli.ts'], platform: 'node', format: 'esm', outfile: cli })
  await build({
    ...common,
    entryPoints: ['src/web/app/main.ts'],
    platform: 'browser',
    format: 'iife',
    outfile: join(dir, 'webapp.js'),
  })
  return cli
}

export type ServeProcess = { readonly child: Child; readonly url: string }

/** A serve process lives for its whole test file, browser tests included. */
const SERVE_DEADLINE_MS = 600_000

/**
 * Runs `steerable serve --port 0 …args` from the built `cli` on the offline demo model (`env`
 * on top), and resolves with the address it prints (without its token); rejects when it exits
 * first. Started in a `beforeAll`, it is the file's to kill in its `afterAll`.
 */
export const startServe = async (
  cli: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<ServeProcess> => {
  const child = startChild(process.execPath, [cli, 'serve', '--port', '0', ...args], {
    deadlineMs: SERVE_DEADLINE_MS,
    env: { ...process.env, STEERABLE_DEMO_WORD_MS: '5', ...env, OPENAI_BASE_URL: '', OPENAI_API_KEY: '' },
    stdin: 'ignore',
  })
  const line = await child.line(/serving http:\/\/127\.0\.0\.1:\d+\//)
  return { child, url: /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(line)![1]! }
}
