/**
 * The lanes of `npm test` (scripts/test.ts). A lane runs its steps one after the other and stops
 * at the first that fails. Each step runs in a process group of its own, so a step that is
 * stopped goes with everything it started. A lane has a deadline: when it passes, the running
 * step is killed and the lane says which step hung. Every failure says why the moment it
 * happens: the exit code or the signal, what the step can add (`explain`: the unit tests name
 * their failing tests), and, for a step whose output is kept rather than shown as it comes, that
 * output.
 */
import { spawn } from 'node:child_process'
import { constants } from 'node:os'

export type Step = {
  readonly name: string
  readonly command: string
  readonly args: readonly string[]
  /** More about a failure than its exit code, read once the step ended. */
  readonly explain?: () => string | undefined
}

export type Lane = {
  readonly name: string
  readonly steps: readonly Step[]
  /** Its steps' output is shown as it comes; otherwise it is kept, and shown with a failure. */
  readonly live: boolean
  readonly deadlineMs: number
}

export type StepRun = { readonly name: string; readonly ms: number; readonly output: string }

export type LaneRun = {
  readonly name: string
  /** The steps that ran, in order: the last one failed when `failure` is set. */
  readonly steps: readonly StepRun[]
  /** Why the lane failed, in lines that stand on their own (a kept output cut to its end). */
  readonly failure?: string
}

export type RunningLane = {
  readonly done: Promise<LaneRun>
  /** Kills the running step (and what it started); the lane fails, saying it was stopped because `reason`. */
  stop(reason: string): void
}

type Ended = { readonly code: number | null; readonly signal: NodeJS.Signals | null; readonly error?: Error }

/** How many lines of a kept output the closing summary repeats. */
const TAIL_LINES = 40

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`
const duration = (ms: number): string =>
  ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : seconds(ms)

/** Runs `lane`; a failure is written with `write` as it happens. */
export const runLane = (lane: Lane, write: (text: string) => void): RunningLane => {
  /** What ended the lane early, said of its step: `hung: …` or `was stopped: …`. */
  let stopping: string | undefined
  let kill = () => {}
  const end = (why: string) => {
    stopping ??= why
    kill()
  }
  const deadline = setTimeout(
    () => end(`hung: it still ran when the ${lane.name} lane's ${duration(lane.deadlineMs)} deadline passed`),
    lane.deadlineMs,
  )
  const done = (async (): Promise<LaneRun> => {
    const steps: StepRun[] = []
    try {
      for (const step of lane.steps) {
        if (stopping !== undefined) break
        const { run, ended } = await runStep(step, lane.live, (killStep) => {
          kill = killStep
        })
        steps.push(run)
        if (stopping === undefined && ended.code === 0) continue
        const { now, summary } = describeFailure(lane, step, run, how(run, ended, stopping))
        write(`\n${now}\n`)
        return { name: lane.name, steps, failure: summary }
      }
      return stopping === undefined
        ? { name: lane.name, steps }
        : { name: lane.name, steps, failure: `npm test: the ${lane.name} lane ${stopping}` }
    } finally {
      clearTimeout(deadline)
    }
  })()
  return { done, stop: (reason) => end(`was stopped: ${reason}`) }
}

/** Runs one step in a process group of its own; `killable` gets what kills the group. */
const runStep = async (
  step: Step,
  live: boolean,
  killable: (kill: () => void) => void,
): Promise<{ run: StepRun; ended: Ended }> => {
  const started = Date.now()
  const child = spawn(step.command, [...step.args], {
    stdio: ['ignore', live ? 'inherit' : 'pipe', live ? 'inherit' : 'pipe'],
    detached: true,
  })
  killable(() => killGroup(child.pid))
  let output = ''
  const keep = (chunk: Buffer) => {
    output += chunk.toString()
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const ended = await new Promise<Ended>((resolve) => {
    child.on('error', (error) => resolve({ code: null, signal: null, error }))
    child.on('close', (code, signal) => resolve({ code, signal }))
  })
  killable(() => {})
  return { run: { name: step.name, ms: Date.now() - started, output }, ended }
}

/** SIGKILLs the process group a detached step leads: the step and whatever it started. */
const killGroup = (pid: number | undefined) => {
  if (pid === undefined) return
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    // Gone already.
  }
}

const how = (run: StepRun, ended: Ended, stopping: string | undefined): string => {
  if (stopping !== undefined) return `${stopping} (it ran ${seconds(run.ms)})`
  if (ended.error !== undefined) return `could not start: ${ended.error.message}`
  if (ended.signal !== null) return `was killed by ${ended.signal} after ${seconds(run.ms)}`
  // A shell (npm's) exits with 128 + n when a command it ran was killed by signal n.
  const signal = Object.entries(constants.signals).find(([, n]) => ended.code === 128 + n)?.[0]
  const killed = signal === undefined ? '' : ` (what it ran was killed by ${signal})`
  return `failed with exit code ${ended.code}${killed} after ${seconds(run.ms)}`
}

/** The failure as written when it happens (a kept output whole) and for the summary (its end). */
const describeFailure = (lane: Lane, step: Step, run: StepRun, what: string) => {
  const cause = [`npm test: ${step.name} (the ${lane.name} lane) ${what}`]
  const explained = step.explain?.()
  if (explained !== undefined) cause.push(explained)
  else if (lane.live) cause.push('(its output is above)')
  if (lane.live) return { now: cause.join('\n'), summary: cause.join('\n') }
  const output = run.output.trimEnd()
  if (output === '') return { now: [...cause, '(it printed nothing)'].join('\n'), summary: cause.join('\n') }
  const lines = output.split('\n')
  const end = lines.length > TAIL_LINES ? [`… (${lines.length - TAIL_LINES} lines before)`] : []
  return {
    now: [...cause, 'its output:', output].join('\n'),
    summary: [...cause, 'the end of its output:', ...end, ...lines.slice(-TAIL_LINES)].join('\n'),
  }
}
