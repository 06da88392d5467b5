/**
 * The calls a run makes into the agent, from the script, from subscribers and from a tool's abort
 * listener: sends (plain, with a busy policy, a turn guard or interrupting), inbox control,
 * cancel, cancelToolCall, retry, dispose and whenIdle. Each call records what the agent showed when it was made (`log.attempts`,
 * `log.controls`), so that the checks can judge its result once the whole run is known.
 */
import type { TestScheduler } from 'rxjs/testing'
import { type Agent, AgentBusyError, AgentDisposedError } from '../../src/index.js'
import { compacting } from './history/phases.js'
import { type CancelCall, describeError, type Log, type Origin, watch } from './log.js'
import {
  type CancelCallOp,
  type CompactOp,
  type ControlOp,
  isControl,
  type Op,
  type RaiseBudgetOp,
  type ReactionOn,
  type RollbackOp,
  type SendKind,
} from './schedule.js'
import { makeSend } from './sendCall.js'
import { cancellable, knownCallIds, openCallIds } from './streaming.js'

/** Input `replace()` must refuse (R2): empty content. */
const INVALID = { content: [], source: { kind: 'user' } } as const

/** Context staged by a top-level inject, and the count of inbox-keeping cancels at that moment. */
export type Staging = { readonly staged: { id: string; keeps: number }[]; keepCancels: number }

/** What every call shares. */
export type CallContext = {
  readonly log: Log
  readonly agent: () => Agent
  readonly scheduler: TestScheduler
  readonly staging: Staging
  /** The agent has finished: `dispose()` resolved (its streams completed). */
  readonly disposed: () => boolean
  /** Whether `dispose()` was called: at top level (processed at once) or by a subscriber. */
  readonly disposeCalled: () => 'none' | 'top' | 'reaction'
  /** A wake may have been scheduled now (R6): surely when `certain` at top level. */
  readonly noteWake: (certain: boolean) => void
}

/** A call id no reply ever has (replies number their calls `c<request>.<call>` from 1). */
const UNKNOWN_CALL = 'c0.1'

export const makeCalls = (
  log: Log,
  agent: () => Agent,
  scheduler: TestScheduler,
  staging: Staging,
  /** How many tool calls the reply to request `k` (1-based) asks for. */
  callsOf: (k: number) => number,
  /** `compact()` and `rollback()` (history/calls.ts). */
  history: (op: CompactOp | RollbackOp | RaiseBudgetOp, origin: Origin) => void,
) => {
  const disposed = () => log.completed.events
  const disposeCalled = (): 'none' | 'top' | 'reaction' =>
    log.disposeCalls.some((d) => d.topLevel) ? 'top' : log.disposeCalls.length > 0 ? 'reaction' : 'none'
  const noteWake = (certain: boolean): void => {
    if (disposeCalled() !== 'none') return
    if (certain && log.topLevel) log.wake.certain = scheduler.now()
    else log.wake.maybe = scheduler.now()
  }
  const send = makeSend({ log, agent, scheduler, staging, disposed, disposeCalled, noteWake })

  const control = (op: ControlOp, text: string, origin: Origin): void => {
    const ids = [...log.sent.keys()]
    if (ids.length === 0) return
    const id = ids[ids.length - 1 - (op.pick % ids.length)] as string
    const a = agent()
    const before = a.inbox
    const status = a.status
    const record = {
      kind: op.kind,
      id,
      ...(op.kind === 'replace' && !op.bad ? { text } : {}),
      ...(op.kind === 'move' ? { index: op.index ?? 0 } : {}),
      origin,
      position: log.timeline.length,
      topLevel: log.topLevel,
      // R46: "open" is for an admission or a turn; a compaction's window is for neither (R74).
      window: a.acceptsNextStep && !compacting(log, log.timeline.length),
      status,
      disposeCalled: log.disposeCalls.length > 0,
      finished: disposed(),
      before,
      end: -1,
    }
    const messageId = id as Parameters<Agent['remove']>[0]
    let error: unknown
    try {
      if (op.kind === 'remove') a.remove(messageId)
      else if (op.kind === 'replace') a.replace(messageId, op.bad ? (INVALID as never) : text)
      else if (op.kind === 'move') a.move(messageId, op.index ?? 0)
      else a.promote(messageId)
    } catch (e) {
      error = e
    }
    log.controls.push({ ...record, end: log.timeline.length, ...(error === undefined ? {} : { error }) })
    // R46: promoting a queued item while nothing runs schedules a wake (R6).
    if (op.kind === 'promote' && status === 'idle' && error === undefined) {
      const queued = before.queue.some((i) => i.message.id === id)
      if (origin !== 'step' || queued) noteWake(origin === 'step')
    }
  }

  /** R71: judged by checkToolCalls.ts once the run is known. */
  const cancelCall = (op: CancelCallOp, origin: Origin): void => {
    const open = op.among === 'open' ? openCallIds(log) : []
    const ids = open.length > 0 ? open : knownCallIds(log, callsOf)
    const callId =
      op.among === 'unknown' || ids.length === 0
        ? UNKNOWN_CALL
        : (ids[ids.length - 1 - (op.pick % ids.length)] as string)
    const reason = op.reason ? `stop ${callId}` : undefined
    const a = agent()
    const inbox = a.inbox
    const position = log.timeline.length
    const facts = {
      callId,
      ...(reason === undefined ? {} : { reason }),
      origin,
      position,
      topLevel: log.topLevel,
      disposeCalled: log.disposeCalls.length > 0,
      finished: disposed(),
      expected: cancellable(log, a.status, callId),
    }
    let result: CancelCall['result']
    try {
      result = {
        cancelled: reason === undefined ? a.cancelToolCall(callId) : a.cancelToolCall(callId, { reason }),
      }
    } catch (error) {
      result = { error }
    }
    log.cancelCalls.push({ ...facts, result, end: log.timeline.length, sameInbox: a.inbox === inbox })
  }

  const retry = (origin: Origin, on?: ReactionOn): void => {
    const a = agent()
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
        (!wasDisposed && (status === 'running' || status === 'paused') && error instanceof AgentBusyError)
      if (!fine) log.problems.push(`retry() from ${origin} while ${status} threw ${describeError(error)}`)
    }
  }

  const call = (op: Op, text: string, origin: Origin, on?: ReactionOn): void => {
    const a = agent()
    if (isControl(op)) return control(op, text, origin)
    switch (op.kind) {
      case 'cancelCall':
        return cancelCall(op, origin)
      case 'cancel':
        if (op.keepInbox) {
          staging.keepCancels++
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
        log.disposeCalls.push({ position: log.timeline.length, topLevel: origin === 'step' })
        return watch(log, `dispose() from ${origin}`, a.dispose())
      case 'whenIdle':
        return watch(log, `whenIdle() from ${origin} at t=${scheduler.now()}`, a.whenIdle())
      case 'compact':
        if (origin === 'reaction') log.compactTriggers.add(log.timeline.length - 1)
        return history(op, origin)
      case 'rollback':
      case 'raiseBudget':
        return history(op, origin)
      default:
        return send(op.kind, text, origin, on, op)
    }
  }
  return { call, send: (kind: SendKind, text: string, origin: Origin) => send(kind, text, origin) }
}
