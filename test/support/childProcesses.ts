/**
 * The one way a test runs another process. Each child has a deadline, generous, that exists so a
 * wedged child fails its test with what it printed instead of hanging the run; its stdout and
 * stderr are read line by line as they come, and a wait for a line is woken by the lines
 * themselves, never by a timer. A child still running when the test that started it ends is
 * SIGKILLed and reaped, whether the test passed or failed. A child started outside a test (in a
 * `beforeAll`, a benchmark, a script) is its starter's to stop; `reapChildren` stops every one
 * left, and so does this process's normal exit (the programs of children/ also exit when their
 * stdin closes, so they go when this process dies).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { onTestFinished } from 'vitest'
import { ChildLines } from './childLines.js'

export type ChildExit = {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
  /** stdout and stderr in the order they came. */
  readonly output: string
  /** The deadline passed and the harness SIGKILLed the child. */
  readonly timedOut: boolean
}

export type ChildOptions = {
  /** How long the child may live: then it is SIGKILLed, and every wait on it fails saying so. */
  readonly deadlineMs: number
  /** Its whole environment (this process's by default). */
  readonly env?: NodeJS.ProcessEnv
  readonly cwd?: string
  readonly uid?: number
  readonly gid?: number
  /** `'pipe'` (the default) for `write` and `end`; a child of children/ exits when it closes. */
  readonly stdin?: 'pipe' | 'ignore'
  /** What failures call it (by default the program's file name). */
  readonly name?: string
}

export type Stream = 'stdout' | 'stderr'

export type WaitOptions = {
  /** Fail this wait (not the child) after so long; without it, the child's deadline bounds it. */
  readonly withinMs?: number
}

export type LineOptions = WaitOptions & {
  /** Only lines at this index of `lines` (or `stderrLines`) or later. */
  readonly from?: number
  readonly stream?: Stream
}

export type Child = {
  readonly pid: number
  readonly name: string
  /** Its stdout lines so far. */
  readonly lines: readonly string[]
  readonly stderrLines: readonly string[]
  /** Whether it still runs (it was not reaped yet). */
  readonly running: boolean
  /** Calls `listener` with each line of either stream as it comes. */
  onLine(listener: (line: string, stream: Stream) => void): void
  /** The first line (of stdout unless `stream`) that matches, printed already or still to come. */
  line(pattern: RegExp, options?: LineOptions): Promise<string>
  /** Its exit; a failure that says what it printed if it still runs `withinMs` from now. */
  exitWithin(withinMs: number): Promise<ChildExit>
  /** Resolves with what `check` returns once that is neither undefined nor false, checked at each line. */
  waitFor<T>(what: string, check: () => T | undefined | false, options?: WaitOptions): Promise<T>
  write(text: string): void
  /** Closes its stdin (after `text`, if given). */
  end(text?: string): void
  signal(signal: NodeJS.Signals): void
  /** SIGKILLs it if it still runs; resolves once it is reaped. */
  kill(): Promise<ChildExit>
  /** Resolves once it is reaped; never rejects. */
  readonly exit: Promise<ChildExit>
}

const running = new Set<ChildLines>()
process.once('exit', () => {
  for (const child of running) child.proc.kill('SIGKILL')
})

export const startChild = (command: string, args: readonly string[], options: ChildOptions): Child => {
  const proc: ChildProcess = spawn(command, args, {
    stdio: [options.stdin ?? 'pipe', 'pipe', 'pipe'],
    env: options.env ?? process.env,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.uid === undefined ? {} : { uid: options.uid }),
    ...(options.gid === undefined ? {} : { gid: options.gid }),
  })
  const name = `${options.name ?? args[0]?.split('/').at(-1) ?? command} (pid ${proc.pid})`
  const state = new ChildLines(proc, name, options.deadlineMs, running)
  const child: Child = {
    pid: proc.pid ?? -1,
    name,
    lines: state.lines.stdout,
    stderrLines: state.lines.stderr,
    get running() {
      return state.exited === undefined
    },
    onLine: (listener) => {
      state.listeners.add(listener)
    },
    line: (pattern, { from = 0, stream = 'stdout', ...wait } = {}) => {
      // Each line is tested once, however long the child talks before the one waited for.
      let next = from
      const found = () => {
        const lines = state.lines[stream]
        for (; next < lines.length; next++) if (pattern.test(lines[next]!)) return lines[next]
        return undefined
      }
      return child.waitFor(`line matching ${pattern} on ${stream}`, found, wait)
    },
    exitWithin: (withinMs) => state.waitFor('exit', () => state.exited, withinMs),
    waitFor: (what, check, wait = {}) => state.waitFor(what, check, wait.withinMs),
    write: (text) => {
      proc.stdin?.write(text)
    },
    end: (text) => {
      proc.stdin?.end(text)
    },
    signal: (signal) => {
      if (state.exited === undefined) proc.kill(signal)
    },
    kill: () => {
      if (state.exited === undefined) proc.kill('SIGKILL')
      return state.exit
    },
    exit: state.exit,
  }
  try {
    onTestFinished(() => child.kill().then(() => undefined))
  } catch {
    // Not started inside a test: its starter stops it (or reapChildren, or this process's exit).
  }
  return child
}

/** SIGKILLs every child still running that this process started, and waits until each is reaped. */
export const reapChildren = async (): Promise<void> => {
  await Promise.all(
    [...running].map((child) => {
      child.proc.kill('SIGKILL')
      return child.exit
    }),
  )
}

export type RunOptions = Omit<ChildOptions, 'stdin' | 'name'> & {
  /** Written to its stdin, which then closes (empty by default). */
  readonly input?: string
}

/** Runs a child to its end (SIGKILLed at the deadline): its status, its output and whether it timed out. */
export const runChild = (command: string, args: readonly string[], options: RunOptions) => {
  const result = spawnSync(command, args, {
    input: options.input ?? '',
    encoding: 'utf8',
    timeout: options.deadlineMs,
    killSignal: 'SIGKILL',
    maxBuffer: 256 * 1024 * 1024,
    env: options.env ?? process.env,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.uid === undefined ? {} : { uid: options.uid }),
    ...(options.gid === undefined ? {} : { gid: options.gid }),
  })
  const timedOut = (result.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT'
  return { ...result, timedOut }
}
