/**
 * One agent under a schedule, on a `TestScheduler` in run mode: the recorder (subscribed first,
 * from creation), the invariant operators, the reentrant subscribers, and the top-level calls.
 */
import type { TestScheduler } from 'rxjs/testing'
import { type Agent, AgentBusyError, AgentDisposedError, createAgent } from '../../src/index.js'
import { buildHooks } from './hooks.js'
import { describeError, type Log, newLog, type Origin, watch } from './log.js'
import { buildModel, buildTools, type Env, thrownValue } from './parts.js'
import { subscribeReactions } from './reactions.js'
import { record } from './recorder.js'
import type { Op, ReactionOn, Schedule, SendKind, Thrown } from './schedule.js'
import { judgeTopLevel } from './topLevel.js'

export type World = {
  readonly agent: Agent
  readonly log: Log
  readonly perform: (op: Op, text: string) => void
  /**
   * V1/R13/R25: with the window closed and no steering staged, context staged by a top-level
   * inject is in the transcript (unless a cancel with keepInbox came since, R26).
   */
  readonly checkStaged: (where: string) => void
}

const PARKED = { target: 'next-turn', wakeup: false } as const

export const buildWorld = (schedule: Schedule, scheduler: TestScheduler): World => {
  const log = newLog()
  let agent: Agent | undefined
  const theAgent = () => agent as Agent
  const disposed = () => log.completed.events
  const staged: { readonly id: string; readonly keeps: number }[] = []
  let keepCancels = 0

  const send = (kind: SendKind, text: string, origin: Origin, on?: ReactionOn): void => {
    const a = theAgent()
    const wasDisposed = disposed()
    const windowAtCall = a.acceptsNextStep
    const durableBefore = log.durable.length
    const before = log.maxId
    try {
      const id =
        kind === 'followup'
          ? a.followup(text)
          : kind === 'steer'
            ? a.steer(text)
            : kind === 'inject'
              ? a.inject(text)
              : a.send(text, PARKED)
      if (wasDisposed) log.problems.push(`V2: ${kind}("${text}") was accepted after dispose() resolved`)
      const trigger = on ? { on, trigger: log.timeline.length - 1 } : {}
      log.sent.set(id, { id, kind, text, origin, windowAtCall, durableBefore, ...trigger })
      if (kind === 'inject' && origin === 'step' && windowAtCall) staged.push({ id, keeps: keepCancels })
      if (id <= before) log.problems.push(`R3: id ${id} of "${text}" does not sort after ${before}`)
      if (id > log.maxId) log.maxId = id
    } catch (error) {
      if (!(wasDisposed && error instanceof AgentDisposedError))
        log.problems.push(`${kind}("${text}") from ${origin} threw ${describeError(error)}`)
    }
  }
  const retry = (origin: Origin, on?: ReactionOn): void => {
    const a = theAgent()
    const status = a.status
    const wasDisposed = disposed()
    try {
      a.retry()
      if (wasDisposed) log.problems.push('V2: retry() was accepted after dispose() resolved')
      // A step/end is never inside requestError: a failed step's comes before the hook starts.
      if (on === 'step/end' && status === 'running')
        log.problems.push('R24: retry() from a step/end subscriber was accepted while running')
    } catch (error) {
      const fine =
        (wasDisposed && error instanceof AgentDisposedError) ||
        (!wasDisposed && status === 'running' && error instanceof AgentBusyError)
      if (!fine) log.problems.push(`retry() from ${origin} while ${status} threw ${describeError(error)}`)
    }
  }
  const call = (op: Op, text: string, origin: Origin, on?: ReactionOn): void => {
    const a = theAgent()
    switch (op.kind) {
      case 'cancel':
        if (op.keepInbox) {
          keepCancels++
          log.keepInboxAt.push(log.timeline.length)
        }
        try {
          a.cancel({ kind: op.cause }, { keepInbox: op.keepInbox })
        } catch (error) {
          log.problems.push(`cancel() from ${origin} threw ${describeError(error)}`)
        }
        return
      case 'retry':
        if (origin === 'reaction') log.retryTriggers.add(log.timeline.length - 1)
        return retry(origin, on)
      case 'dispose':
        return watch(log, `dispose() from ${origin}`, a.dispose())
      case 'whenIdle':
        return watch(log, `whenIdle() from ${origin} at t=${scheduler.now()}`, a.whenIdle())
      default:
        return send(op.kind, text, origin, on)
    }
  }

  const plan = schedule.plan
  let throws = 0
  const thrown = (message: string): unknown =>
    plan.thrown.length === 0
      ? new Error(message)
      : thrownValue(plan.thrown[throws++ % plan.thrown.length] as Thrown, message)
  const env: Env = {
    cold: scheduler.createColdObservable.bind(scheduler),
    log,
    agent: theAgent,
    send,
    thrown,
  }
  agent = createAgent({
    model: buildModel(env, plan),
    tools: buildTools(env),
    hooks: buildHooks(env, plan),
    scheduler,
  })

  const steering = record(agent, log, scheduler)
  const fired = subscribeReactions(agent, schedule, call)

  const checkStaged = (where: string): void => {
    if (theAgent().acceptsNextStep || steering.size > 0) return
    for (const { id, keeps } of staged.splice(0)) {
      if (keeps !== keepCancels) continue
      if (!log.durable.some((e) => e.type === 'user/message' && e.data.id === id))
        log.problems.push(
          `V1/R13: inject("${log.sent.get(id)?.text}") staged in the window is not appended ${where}, with the window closed and no steering staged`,
        )
    }
  }
  const perform = (op: Op, text: string) =>
    judgeTopLevel(
      log,
      theAgent(),
      op,
      () => fired() + log.abortSends,
      () => call(op, text, 'step'),
    )
  return { agent, log, perform, checkStaged }
}
