/**
 * Real child processes for cross-process tests: a TypeScript entry bundled once with esbuild and
 * run with plain `node`, its stdout read line by line. Every child still running when the test
 * ends is killed (`killAll`, for an `afterEach`).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'

export type Child = {
  readonly pid: number
  readonly lines: string[]
  /** The first line matching `pattern`; rejects when the child exits without printing one. */
  line(pattern: RegExp): Promise<string>
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>
  signal(signal: NodeJS.Signals): void
}

export type ChildProgram = {
  start(env: Record<string, string>): Child
  killAll(): void
  remove(): void
}

export const bundleChild = async (entry: string): Promise<ChildProgram> => {
  const dir = mkdtempSync(join(tmpdir(), 'steerable-child-'))
  const bundle = join(dir, 'child.mjs')
  // pg-native is an optional part of pg that is not installed.
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: bundle,
    logLevel: 'silent',
    external: ['pg-native'],
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  })
  const running = new Set<ChildProcess>()
  return {
    start: (env) => start(bundle, env, running),
    killAll: () => {
      for (const child of running) child.kill('SIGKILL')
      running.clear()
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}

const start = (bundle: string, env: Record<string, string>, running: Set<ChildProcess>): Child => {
  const proc = spawn(process.execPath, [bundle], {
    // stdin is a pipe the child watches: it exits when it closes, so no child outlives the tests.
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  })
  return watchChild(proc, running)
}

/**
 * Reads a spawned child's stdout line by line and keeps it in `running` until it exits (so a
 * `killAll` can reach it): its lines, `line(pattern)` for the first match, its exit, `signal`.
 */
export const watchChild = (proc: ChildProcess, running: Set<ChildProcess>): Child => {
  running.add(proc)
  const lines: string[] = []
  const waiting = new Set<() => void>()
  let buffer = ''
  let stderr = ''
  let exited = false
  proc.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString()
    for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
      lines.push(buffer.slice(0, nl))
      buffer = buffer.slice(nl + 1)
    }
    for (const check of waiting) check()
  })
  proc.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve) => {
      proc.on('close', (code, signal) => {
        exited = true
        running.delete(proc)
        for (const check of waiting) check()
        resolve({ code, signal, stderr })
      })
    },
  )
  const line = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const found = lines.find((l) => pattern.test(l))
        if (found !== undefined || exited) waiting.delete(check)
        if (found !== undefined) resolve(found)
        else if (exited) reject(new Error(`child ${proc.pid} exited without ${pattern}: ${lines}\n${stderr}`))
      }
      waiting.add(check)
      check()
    })
  return { pid: proc.pid ?? -1, lines, line, exit, signal: (signal) => proc.kill(signal) }
}
