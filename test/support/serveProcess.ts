import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'
import { build } from 'esbuild'
import { type Child, watchChild } from './childProcesses.js'

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

/**
 * Runs `steerable serve --port 0 …args` from the built `cli` on the offline demo model, and
 * resolves with the address it prints (without its token); rejects when it exits first. The
 * child is kept in `running`, for a `killAll` after the test.
 */
export const startServe = async (
  cli: string,
  args: readonly string[],
  running: Set<ChildProcess>,
): Promise<ServeProcess> => {
  const proc = spawn(process.execPath, [cli, 'serve', '--port', '0', ...args], {
    env: { ...process.env, STEERABLE_DEMO_WORD_MS: '5', OPENAI_BASE_URL: '', OPENAI_API_KEY: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const child = watchChild(proc, running)
  const line = await child.line(/serving http:\/\/127\.0\.0\.1:\d+\//)
  return { child, url: /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(line)![1]! }
}
