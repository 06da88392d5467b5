/**
 * One agent under a schedule, on a `TestScheduler` in run mode: the recorder (subscribed first,
 * from creation), the invariant operators, the reentrant subscribers, and the top-level calls.
 */
import type { TestScheduler } from 'rxjs/testing'
import { type Opening, openAgent } from '../../src/agent/createAgent.js'
import type { Agent, SessionStore } from '../../src/index.js'
import { makeCalls, type Staging } from './calls.js'
import { makeHistoryCalls } from './history/calls.js'
import { buildSummarizer } from './history/summarizer.js'
import { buildHooks } from './hooks.js'
import { type Log, newLog } from './log.js'
import { buildModel, buildTools, type Env, thrownValue } from './parts.js'
import { subscribeReactions } from './reactions.js'
import { record } from './recorder.js'
import type { Op, Schedule, Thrown } from './schedule.js'
import { judgeTopLevel } from './topLevel.js'

export type World = {
  readonly agent: Agent
  readonly log: Log
  readonly perform: (op: Op, text: string) => void
  /**
   * V1/R13/R25: with the window closed and no steering staged, context staged by a top-level
   * inject is in the transcript (unless a cancel with keepInbox came since, R26, or a remove
   * named it, R43).
   */
  readonly checkStaged: (where: string) => void
}

/** How the agent of a world is made, beyond what the schedule decides. */
export type WorldOptions = {
  /** `false`: an agent whose engine is never released (the release property compares the two). */
  readonly release?: boolean
  /** A reducer around the agent's own (the test of `snapshots$` records what it produced). */
  readonly reduce?: Opening['reduce']
  /** Told of the agent as soon as it is made, before anything subscribes to it. */
  readonly opened?: (agent: Agent) => void
  /** A store for the agent (the default keeps events in memory and flushes at once). */
  readonly store?: (scheduler: TestScheduler) => SessionStore
}

export const buildWorld = (schedule: Schedule, scheduler: TestScheduler, made: WorldOptions = {}): World => {
  const log = newLog()
  let agent: Agent | undefined
  const theAgent = () => agent as Agent
  const staging: Staging = { staged: [], keepCancels: 0 }
  const plan = schedule.plan
  const callsOf = (k: number) => {
    const reply = plan.replies[k - 1]
    return reply?.kind === 'stream' ? reply.calls.length : 0
  }
  let history: ReturnType<typeof makeHistoryCalls> | undefined
  const { call, send } = makeCalls(log, theAgent, scheduler, staging, callsOf, (op, origin) => {
    if (op.kind === 'compact') history?.compact(op, origin)
    else if (op.kind === 'raiseBudget') history?.raiseBudget(op, origin)
    else if (origin === 'step') history?.rollback(op)
  })

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
  // R74, R76: a history schedule's agent summarises with the run's summariser (never its model).
  const summarize = buildSummarizer(env, plan.summaries ?? [])
  history = makeHistoryCalls(log, theAgent, summarize, plan.budget ?? undefined)
  const auto = plan.autoCompaction ?? undefined
  const compaction =
    plan.summaries === undefined
      ? {}
      : {
          compaction: {
            summarize,
            ...(auto ? { whenInputTokensExceed: auto.whenInputTokensExceed } : {}),
            ...(auto?.keepLastTurns === undefined ? {} : { keepLastTurns: auto.keepLastTurns }),
          },
        }
  const options = {
    ...compaction,
    model: buildModel(env, plan),
    tools: buildTools(env),
    hooks: buildHooks(env, plan),
    scheduler,
    ...(plan.maxQueued === null ? {} : { maxQueued: plan.maxQueued }),
    ...(plan.budget ? { budget: plan.budget } : {}),
    ...(made.store ? { store: made.store(scheduler) } : {}),
  }
  agent = openAgent(options, {
    release: made.release ?? true,
    ...(made.reduce ? { reduce: made.reduce } : {}),
  })
  made.opened?.(agent)

  const steering = record(agent, log, scheduler)
  const fired = subscribeReactions(agent, schedule, call)

  const checkStaged = (where: string): void => {
    if (theAgent().acceptsNextStep || steering.size > 0) return
    const removed = new Set(log.controls.filter((c) => c.kind === 'remove').map((c) => c.id))
    for (const { id, keeps } of staging.staged.splice(0)) {
      if (keeps !== staging.keepCancels || removed.has(id)) continue
      if (!log.durable.some((e) => e.type === 'user/message' && e.data.id === id))
        log.problems.push(
          `V1/R13: inject("${log.sent.get(id)?.text}") staged in the window is not appended ${where}, with the window closed and no steering staged`,
        )
    }
  }
  const perform = (op: Op, text: string) => {
    log.topLevel = true
    try {
      judgeTopLevel(
        log,
        theAgent(),
        op,
        () => fired() + log.abortSends,
        () => call(op, text, 'step'),
      )
    } finally {
      log.topLevel = false
    }
  }
  return { agent, log, perform, checkStaged }
}
