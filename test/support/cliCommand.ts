import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import { runChild } from './childProcesses.js'

/**
 * The `steerable` command for end-to-end tests. It is bundled once with esbuild and run with
 * plain `node` (tsx per spawn costs seconds on this machine); the terminal tests drive it through
 * a real pseudo-terminal (test/support/ptyDrive.py, Python's pty module).
 */
export const buildCli = async (dir: string): Promise<string> => {
  const cli = join(dir, 'cli.mjs')
  await build({
    entryPoints: ['src/cli.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: cli,
    logLevel: 'silent',
  })
  return cli
}

/** The demo model at a pace that keeps the tests short. */
export const FAST = { STEERABLE_DEMO_WORD_MS: '5', STEERABLE_DEMO_TOOL_MS: '20' }

/** Runs the command without a terminal, `input` piped to it; never reaches a real model. */
export const runCli = (
  cli: string,
  input: string,
  args: readonly string[] = [],
  env: Record<string, string> = FAST,
) =>
  runChild(process.execPath, [cli, ...args], {
    input,
    deadlineMs: 60_000,
    env: { ...process.env, ...env, OPENAI_BASE_URL: '', OPENAI_API_KEY: '' },
  })

/** Whether Python's pty module is there to drive the terminal app. */
export const hasPty = runChild('python3', ['-c', 'import pty'], { deadlineMs: 30_000 }).status === 0

/** Plays `steps` against the command in a pseudo-terminal; returns the ANSI-free screen output. */
export const driveCli = (
  cli: string,
  steps: readonly object[],
  args: readonly string[],
  env: Record<string, string>,
) => {
  const result = runChild(
    'python3',
    ['test/support/ptyDrive.py', JSON.stringify(steps), '--', process.execPath, cli, ...args],
    { deadlineMs: 90_000, env: { ...process.env, ...env, OPENAI_BASE_URL: '', OPENAI_API_KEY: '' } },
  )
  return { status: result.status, output: result.stdout, error: result.stderr }
}

export type Logged = { readonly seq: number; readonly type: string; readonly data: Record<string, unknown> }

/** A file store's session log, one event a line. */
export const readLog = (path: string): Logged[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Logged)
