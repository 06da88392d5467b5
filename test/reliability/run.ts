/**
 * Runs one schedule on one `TestScheduler`, in run mode, one segment at a time: each segment
 * flushes virtual time up to a frame (`maxFrames`), so the script's calls happen between
 * segments, at the start of their frame, and the microtasks can run in between. That makes
 * `whenIdle()` observable: right after a call it must be resolved exactly when the agent is
 * quiescent (R28).
 *
 * After the script, time runs until nothing is scheduled. A running agent at rest must be waiting
 * on something that hangs (else it is stuck); such hangs are ended with `cancel(user)` until it
 * is idle. An idle agent must be quiescent. Last, `dispose()` (R29).
 */
import { TestScheduler } from 'rxjs/testing'
import type { Agent } from '../../src/index.js'
import { label } from '../../src/testing.js'
import { checkInboxView } from './checkInboxView.js'
import { InboxFold } from './fold.js'
import type { Log } from './log.js'
import type { Schedule } from './schedule.js'
import { buildWorld, type World, type WorldOptions } from './world.js'

export type RunResult = {
  readonly agent: Agent
  readonly log: Log
  readonly fold: InboxFold
  readonly show: () => string
}

/** Cleanup cancels before the run counts as never coming to rest. */
const MAX_CLEANUPS = 30
/** Scheduled actions before a run counts as a runaway loop (a normal run needs a few hundred). */
const MAX_ACTIONS = 50_000

const macrotask = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Queued ids whose send may wake the driver and which are neither dequeued nor discarded. */
export const wakingOutstanding = (log: Log): string[] => {
  const open = new Set<string>()
  for (const e of log.live) {
    if (e.type === 'agent/inbox/enqueue' && e.placement === 'queued') {
      if (log.sent.get(e.message.id)?.kind !== 'parked') open.add(e.message.id)
    } else if (e.type === 'agent/inbox/dequeue') open.delete(e.message.id)
    else if (e.type === 'agent/inbox/discard') for (const m of e.messages) open.delete(m.id)
  }
  return [...open]
}

export const runSchedule = async (schedule: Schedule, made: WorldOptions = {}): Promise<RunResult> => {
  const scheduler = new TestScheduler(() => {})
  const plain = scheduler.schedule.bind(scheduler)
  let budget = MAX_ACTIONS
  scheduler.schedule = ((...args: Parameters<typeof plain>) => {
    if (--budget < 0) throw new Error(`liveness: more than ${MAX_ACTIONS} scheduled actions (a runaway loop)`)
    return plain(...args)
  }) as typeof plain
  /** Runs `body` in run mode, then flushes every action up to frame `bound`. */
  const segment = (bound: number, body?: () => void): void =>
    scheduler.run(() => {
      scheduler.maxFrames = bound
      body?.()
    })
  let world: World | undefined
  segment(-1, () => {
    world = buildWorld(schedule, scheduler, made)
  })
  const { agent, log, perform, checkStaged } = world as World
  const disposing = () => log.promises.some((p) => p.what.startsWith('dispose'))
  const fold = new InboxFold(log)

  let frame = -1
  let sentAtFrame = 0
  for (const step of schedule.steps) {
    if (step.t !== frame) {
      segment(step.t - 1)
      scheduler.frame = frame = step.t
      sentAtFrame = log.sent.size
      checkStaged(`t=${frame}`)
    }
    const promises = log.promises.length
    segment(frame - 1, () => perform(step.op, step.text))
    if (!log.completed.events) checkInboxView(log, fold, agent, `after t=${frame} ${step.op.kind}`)
    if (step.op.kind !== 'whenIdle' || disposing()) continue
    // A promote from a subscriber may have scheduled a wake (R46): whenIdle() is not judged.
    if (log.wake.maybe === frame) continue
    // R28 at the call: quiescent means idle with nothing waking (and no wake scheduled, which
    // a send or a promote in this frame may have done, R6).
    const idle = agent.status === 'idle' && wakingOutstanding(log).length === 0 && log.wake.certain !== frame
    const entry = log.promises[promises]
    await macrotask()
    if (idle && log.sent.size === sentAtFrame && entry?.settled !== 'resolved')
      log.problems.push(`R28: whenIdle() at t=${frame} while quiescent is ${entry?.settled}`)
    if (!idle && entry?.settled !== 'pending')
      log.problems.push(`R28: whenIdle() at t=${frame} while busy is already ${entry?.settled}`)
  }

  for (let cleanups = 0; ; cleanups++) {
    segment(Number.POSITIVE_INFINITY)
    const at = `at rest (t=${scheduler.now()})`
    if (log.completed.events) break
    // R80: a budget pause at rest waits for a person; cancel() ends it, as it ends a hang.
    if (agent.status === 'running' || agent.status === 'paused') {
      if (log.hangs === 0 && agent.status === 'running')
        log.problems.push(`liveness: running ${at} with nothing scheduled or hanging`)
      if (cleanups >= MAX_CLEANUPS) {
        log.problems.push(`liveness: still running after ${MAX_CLEANUPS} cleanup cancels`)
        break
      }
      segment(Number.POSITIVE_INFINITY, () => agent.cancel({ kind: 'user' }))
      continue
    }
    checkStaged(at)
    checkInboxView(log, fold, agent, at)
    if (agent.acceptsNextStep) log.problems.push(`R28: window open while idle ${at}`)
    const waking = wakingOutstanding(log)
    if (waking.length > 0) log.problems.push(`R28/R6: idle with waking items ${waking} queued ${at}`)
    if (log.hangs > 0) log.problems.push(`${log.hangs} hook/tool/model subscription(s) left open ${at}`)
    segment(Number.POSITIVE_INFINITY, () => perform({ kind: 'whenIdle' }, ''))
    break
  }
  await macrotask()
  for (const p of log.promises)
    if (p.settled !== 'resolved')
      log.problems.push(`R28/R29: ${p.what} ${p.settled} before the final dispose()`)

  let disposed = false
  segment(Number.POSITIVE_INFINITY, () => {
    // What subscribers send from here on is accepted and discarded (R29, R48).
    log.disposeCalls.push({ position: log.timeline.length, topLevel: true })
    agent.dispose().then(() => {
      disposed = true
    })
  })
  await macrotask()
  if (!disposed) log.problems.push('R29: the final dispose() did not resolve')
  if (!log.completed.events || !log.completed.transcript)
    log.problems.push(`R29: streams not completed after dispose() (${JSON.stringify(log.completed)})`)
  if (log.hangs > 0)
    log.problems.push(`R29: ${log.hangs} hook/tool/model subscription(s) open after dispose()`)
  fold.advance()
  fold.finish()
  return { agent, log, fold, show: () => showTimeline(log) }
}

/** The run as one labelled line per event: `t=5 enqueue(f1,queued)`, `t=6 D turn/start(1)` … */
export const showTimeline = (log: Log): string =>
  log.timeline
    .flatMap((e) => {
      if ('live' in e) return e.live.type === 'agent/stream/delta' ? [] : [`t=${e.frame} ${label(e.live)}`]
      return [`t=${e.frame} D ${label(e.durable)}`]
    })
    .join('\n')
