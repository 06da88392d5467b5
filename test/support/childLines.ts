/**
 * The inside of childProcesses.ts's children: a spawned process's stdout and stderr split into
 * lines as they come (decoded as UTF-8 across chunks), the waits those lines wake, the deadline,
 * and the exit. A wait that fails says what the child and every other running child printed.
 */
import type { ChildProcess } from 'node:child_process'
import type { ChildExit, Stream } from './childProcesses.js'

const STREAMS = ['stdout', 'stderr'] as const

export class ChildLines {
  readonly lines: Record<Stream, string[]> = { stdout: [], stderr: [] }
  readonly listeners = new Set<(line: string, stream: Stream) => void>()
  /** Set once the child was reaped. */
  exited: ChildExit | undefined
  readonly exit: Promise<ChildExit>
  #text: Record<Stream, string> = { stdout: '', stderr: '' }
  #partial: Record<Stream, string> = { stdout: '', stderr: '' }
  #output = ''
  #timedOut = false
  #wakers = new Set<() => void>()
  #reap: (exit: ChildExit) => void = () => {}
  #deadline: NodeJS.Timeout

  constructor(
    readonly proc: ChildProcess,
    readonly name: string,
    readonly deadlineMs: number,
    readonly running: Set<ChildLines>,
  ) {
    this.exit = new Promise((resolve) => {
      this.#reap = resolve
    })
    for (const stream of STREAMS) {
      proc[stream]?.setEncoding('utf8')
      proc[stream]?.on('data', (chunk: string) => this.#data(stream, chunk))
    }
    // The child may die with a write on its way.
    proc.stdin?.on('error', () => {})
    proc.on('close', (code, signal) => this.#reaped(code, signal))
    // A child that could not start (no such file, no permission) may never close.
    proc.on('error', (error) => {
      this.#text.stderr += `${error.message}\n`
      if (proc.pid === undefined) this.#reaped(null, null)
    })
    running.add(this)
    this.#deadline = setTimeout(() => {
      this.#timedOut = true
      proc.kill('SIGKILL')
    }, deadlineMs)
    this.#deadline.unref()
  }

  /** Resolves with `check()` once it is neither undefined nor false; rejects once the child is gone. */
  waitFor<T>(what: string, check: () => T | undefined | false, withinMs?: number): Promise<T> {
    const waiting = new Promise<T>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined
      const settle = () => {
        this.#wakers.delete(wake)
        clearTimeout(timer)
      }
      const fail = (why: string) => {
        settle()
        const others = [...this.running].filter((c) => c !== this).map((c) => c.printed())
        reject(new Error([`${this.name}: no ${what}: ${why}`, this.printed(), ...others].join('\n')))
      }
      const wake = () => {
        let value: T | undefined | false
        try {
          value = check()
        } catch (error) {
          settle()
          return reject(error)
        }
        if (value !== undefined && value !== false) {
          settle()
          resolve(value)
        } else if (this.exited !== undefined) fail(`it ${this.#ended(this.exited)}`)
      }
      this.#wakers.add(wake)
      if (withinMs !== undefined) timer = setTimeout(() => fail(`none within ${withinMs} ms`), withinMs)
      wake()
    })
    // A wait nobody awaits any more (its test failed on something else) fails when the child is
    // reaped: that must not fail the run as an unhandled rejection. Its awaiter still sees it.
    waiting.catch(() => {})
    return waiting
  }

  /** The last lines it printed on each stream, for a failure message. */
  printed(): string {
    const tail = (lines: readonly string[]) =>
      `${lines.length > 40 ? `… ${lines.length - 40} lines before\n` : ''}${lines.slice(-40).join('\n')}`
    return `--- ${this.name} printed on stdout:\n${tail(this.lines.stdout)}\n--- and on stderr:\n${tail(this.lines.stderr)}`
  }

  #ended(exit: ChildExit): string {
    if (exit.timedOut) return `was SIGKILLed at its ${this.deadlineMs} ms deadline`
    return exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`
  }

  #data(stream: Stream, chunk: string): void {
    this.#text[stream] += chunk
    this.#output += chunk
    this.#partial[stream] += chunk
    for (let nl = this.#partial[stream].indexOf('\n'); nl !== -1; nl = this.#partial[stream].indexOf('\n')) {
      this.#push(stream, this.#partial[stream].slice(0, nl))
      this.#partial[stream] = this.#partial[stream].slice(nl + 1)
    }
    this.#wakeAll()
  }

  #push(stream: Stream, line: string): void {
    this.lines[stream].push(line)
    for (const listener of this.listeners) listener(line, stream)
  }

  #wakeAll(): void {
    for (const wake of this.#wakers) wake()
  }

  #reaped(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exited !== undefined) return
    clearTimeout(this.#deadline)
    this.running.delete(this)
    for (const stream of STREAMS) if (this.#partial[stream] !== '') this.#push(stream, this.#partial[stream])
    const text = this.#text
    this.exited = {
      code,
      signal,
      stdout: text.stdout,
      stderr: text.stderr,
      output: this.#output,
      timedOut: this.#timedOut,
    }
    this.#wakeAll()
    this.#reap(this.exited)
  }
}
