/**
 * Runs one approvals schedule on one `TestScheduler`, a segment at a time as the main suite does
 * (test/reliability/run.ts): the script's calls happen between segments, at the start of their
 * frame. A restart disposes the process (or kills it) and opens the next one on the same disk; R65
 * is checked there. After the script, time runs out and what is still pending is decided, until
 * the agent is idle; then the last process is disposed and every id's fate is asked.
 */
import { TestScheduler } from 'rxjs/testing'
import type { AgentMessageId, Outcome } from '../../../src/index.js'
import { act, type Calls, newCalls } from './act.js'
import { Disk } from './disk.js'
import { decisionKey, pendingInLog } from './pendingInLog.js'
import type { ApprovalSchedule } from './plan.js'
import { openProcess, type Process, type Run } from './process.js'
import { subscribeReactions } from './reactions.js'

export type RunResult = {
  readonly run: Run
  readonly processes: readonly Process[]
  readonly calls: Calls
  /** Each id's fate as the last process tells it after its `dispose()`. */
  readonly fates: ReadonlyMap<AgentMessageId, Outcome | { readonly rejected: unknown }>
}

const MAX_ACTIONS = 50_000
const MAX_CLEANUPS = 30
const macrotask = () => new Promise<void>((resolve) => setImmediate(resolve))

export const runApprovalSchedule = async (schedule: ApprovalSchedule): Promise<RunResult> => {
  const scheduler = new TestScheduler(() => {})
  const plain = scheduler.schedule.bind(scheduler)
  let budget = MAX_ACTIONS
  scheduler.schedule = ((...args: Parameters<typeof plain>) => {
    if (--budget < 0) throw new Error(`liveness: more than ${MAX_ACTIONS} scheduled actions (a runaway loop)`)
    return plain(...args)
  }) as typeof plain
  const segment = (bound: number, body?: () => void): void =>
    scheduler.run(() => {
      scheduler.maxFrames = bound
      body?.()
    })
  const run: Run = {
    plan: schedule.plan,
    scheduler,
    disk: new Disk(),
    problems: [],
    timeline: [],
    requests: 0,
    reacted: 0,
  }
  const calls = newCalls()
  const processes: Process[] = []
  const open = (): Process => {
    const p = openProcess(run, processes.length)
    processes.push(p)
    subscribeReactions(run, calls, p)
    return p
  }
  let current = undefined as unknown as Process
  segment(-1, () => {
    current = open()
  })
  // Every run starts with a turn, so that most runs reach a pause; the script's sends add more.
  segment(-1, () => act(run, calls, current, { kind: 'followup' }, true))

  /** `dispose()` (or a crash, then `dispose()` to stop what still runs), then the next process. */
  const restart = async (frame: number, crash: boolean): Promise<void> => {
    const old = current
    const pending = old.agent.approvals.map((a) => a.key)
    // R65: reaching the pause was a checkpoint, so its requests are on the disk whatever happens now.
    for (const key of pending)
      if (!run.disk.events.some((e) => e.type === 'approval/request' && decisionKey(e.data) === key))
        run.problems.push(`R65: process ${old.index} is paused on ${key}, whose request is not flushed`)
    let disposed = false
    segment(frame, () => {
      if (crash) {
        run.disk.crash()
        old.crashed = true
      }
      old.agent.dispose().then(() => {
        disposed = true
      })
    })
    // R42: asked after dispose(), an id the process returned is never unknown to it.
    for (const [id, sent] of calls.sent)
      if (sent.process === old.index)
        old.agent.outcome(id).catch((error: unknown) => {
          run.problems.push(
            `R42: outcome(${sent.text}) after dispose() of process ${old.index}: ${String(error)}`,
          )
        })
    await macrotask()
    if (!disposed) run.problems.push(`R29: dispose() of process ${old.index} did not resolve`)
    segment(frame - 1, () => {
      current = open()
    })
    // R65: the pause is reopened as the log has it (after a clean dispose, as it was).
    const expected = crash ? pendingInLog(run.disk.events) : pending
    const now = current.agent.approvals.map((a) => a.key)
    if (now.join() !== expected.join())
      run.problems.push(`R65: process ${current.index} reopened on [${now}], the log holds [${expected}]`)
    if (expected.length > 0 !== (current.agent.status === 'paused'))
      run.problems.push(
        `R65: process ${current.index} reopened ${current.agent.status} with [${expected}] pending`,
      )
  }

  /** At a frame's start the unwinds are over: the approvals are the log's, and only they pause. */
  const checkPause = (where: string): void => {
    const listed = current.agent.approvals.map((a) => a.key)
    const inLog = pendingInLog(current.agent.session.events)
    if (listed.join() !== inLog.join())
      run.problems.push(`R61: approvals [${listed}] ≠ the log's [${inLog}] ${where}`)
    if (listed.length > 0 !== (current.agent.status === 'paused'))
      run.problems.push(`R61: status ${current.agent.status} with approvals [${listed}] ${where}`)
  }

  let frame = -1
  for (const step of schedule.steps) {
    if (step.t !== frame) {
      segment(step.t - 1)
      scheduler.frame = frame = step.t
      checkPause(`at t=${frame}`)
    }
    const op = step.op
    if (op.kind === 'restart') await restart(frame, op.crash)
    else segment(frame - 1, () => act(run, calls, current, op, true))
  }

  let decided = 0
  for (let cleanups = 0; ; cleanups++) {
    segment(Number.POSITIVE_INFINITY)
    const agent = current.agent
    if (cleanups > 0) checkPause(`at rest (t=${scheduler.now()})`)
    if (agent.status === 'idle') break
    if (agent.status !== 'paused' || cleanups >= MAX_CLEANUPS) {
      run.problems.push(`liveness: ${agent.status} at rest (t=${scheduler.now()}) after ${cleanups} rounds`)
      break
    }
    const policy = schedule.plan.finally
    segment(Number.POSITIVE_INFINITY, () => {
      for (const { key } of agent.approvals) {
        // A subscriber may have decided it in the meantime.
        if (!agent.approvals.some((a) => a.key === key)) continue
        const yes = policy === 'approve' || (policy === 'alternate' && decided++ % 2 === 0)
        if (yes) agent.approve(key)
        else agent.deny(key)
      }
    })
  }

  let disposed = false
  segment(Number.POSITIVE_INFINITY, () => {
    current.agent.dispose().then(() => {
      disposed = true
    })
  })
  await macrotask()
  if (!disposed) run.problems.push('R29: the last dispose() did not resolve')
  const fates = new Map<AgentMessageId, Outcome | { rejected: unknown }>()
  for (const id of calls.sent.keys())
    current.agent.outcome(id).then(
      (outcome) => fates.set(id, outcome),
      (rejected: unknown) => fates.set(id, { rejected }),
    )
  await macrotask()
  return { run, processes, calls, fates }
}
