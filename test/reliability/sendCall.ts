/**
 * A send call (R3, R4, R47–R49): what the agent shows at the call is recorded with the result
 * (`log.attempts`, judged by checkRefusals.ts); an accepted send is logged (`log.sent`), counted
 * as pending until its `enqueue`, noted when it may schedule a wake (R6), and its outcome asked
 * for at once (R42).
 */
import type { Agent, Outcome, SessionEvent } from '../../src/index.js'
import type { CallContext } from './calls.js'
import { compacting } from './history/phases.js'
import type { Origin, SendOptionsUsed } from './log.js'
import type { ReactionOn, SendKind, SendOp, TurnPick } from './schedule.js'
import { streamingStep } from './streaming.js'

const PARKED = { target: 'next-turn', wakeup: false } as const
const STEER = { target: 'next-step', wakeup: true } as const

/** The turn the transcript has open (`turn/start` without its `turn/end`), if any. */
export const openTurnOf = (durable: readonly SessionEvent[]): number | undefined => {
  for (let i = durable.length - 1; i >= 0; i--) {
    const e = durable[i] as SessionEvent
    if (e.type === 'turn/end') return undefined
    if (e.type === 'turn/start') return e.data.turn
  }
  return undefined
}
export const lastTurnOf = (durable: readonly SessionEvent[]): number => {
  for (let i = durable.length - 1; i >= 0; i--) {
    const e = durable[i] as SessionEvent
    if (e.type === 'turn/start') return e.data.turn
  }
  return 0
}
const turnFor = (pick: TurnPick, reference: number): number =>
  pick === 'current' ? reference : pick === 'future' ? reference + 1 : Math.max(1, reference - 1)

const invoke = (a: Agent, kind: SendKind, text: string, options: SendOptionsUsed): string => {
  const extra = {
    ...(options.ifBusy ? { ifBusy: options.ifBusy } : {}),
    ...(options.turn !== undefined ? { turn: options.turn } : {}),
    ...(options.interrupt ? { interrupt: true } : {}),
  }
  if (options.interrupt === 'send') return a.send(text, { ...STEER, ...extra })
  const plain = Object.keys(extra).length === 0
  switch (kind) {
    case 'followup':
      return plain ? a.followup(text) : a.followup(text, extra)
    case 'steer':
      return plain ? a.steer(text) : a.steer(text, extra)
    case 'inject':
      return plain ? a.inject(text) : a.inject(text, extra)
    case 'parked':
      return a.send(text, { ...PARKED, ...extra })
  }
}

export const makeSend = (ctx: CallContext) => {
  const { log, agent, scheduler, staging } = ctx
  const send = (kind: SendKind, text: string, origin: Origin, on?: ReactionOn, op?: SendOp): void => {
    const a = agent()
    const wasDisposed = ctx.disposed()
    const window = a.acceptsNextStep
    const lastTurn = lastTurnOf(log.durable)
    // The window's turn, from the transcript so far: no single step of the agent closes one turn
    // and opens the next window (the next move comes after the call stack, R13b), so while the
    // window is open it is the open turn, or the next turn number during an admission.
    // During a compaction the window is open for no turn (R74, R49): a guarded steer is refused.
    const inCompaction = compacting(log, log.timeline.length)
    const windowTurn = window && !inCompaction ? (openTurnOf(log.durable) ?? lastTurn + 1) : null
    const options: SendOptionsUsed = {
      ...(op?.ifBusy ? { ifBusy: op.ifBusy } : {}),
      ...(op?.turn ? { turn: turnFor(op.turn, windowTurn ?? lastTurn + 1) } : {}),
      ...(op?.interrupt ? { interrupt: op.interrupt } : {}),
    }
    const inbox = a.inbox
    const position = log.timeline.length
    const durableBefore = log.durable.length
    const before = log.maxId
    let pending = 0
    let pendingWaking = 0
    for (const id of log.unprocessed) {
      pending++
      const k = log.sent.get(id)?.kind
      if (k === 'followup' || k === 'steer') pendingWaking++
    }
    const now = scheduler.now()
    const facts = {
      kind,
      text,
      options,
      origin,
      position,
      frame: now,
      topLevel: log.topLevel,
      window,
      windowTurn,
      compacting: inCompaction,
      lastTurn,
      status: a.status,
      queue: inbox.queue.length,
      waking: inbox.queue.filter((i) => i.placement === 'queued').length,
      steering: inbox.outbox.filter((i) => i.placement === 'steering').length,
      pending,
      pendingWaking,
      wakeCertain: log.wake.certain === now,
      wakeMaybe: log.wake.maybe === now,
      disposeCalled: ctx.disposeCalled(),
      ...(options.interrupt ? { streaming: streamingStep(log, a.status) ?? null } : {}),
    }
    // Noted before the call: at top level the send is processed inside it, and subscribers that
    // run meanwhile already see the wake it scheduled. A refusal happens first and undoes it.
    const wakeBefore = { ...log.wake }
    const waking = kind === 'followup' || (kind === 'steer' && (!window || origin !== 'step'))
    if (waking && facts.status === 'idle') ctx.noteWake(origin === 'step' || log.topLevel)
    let result: { id: string } | { error: unknown }
    try {
      result = { id: invoke(a, kind, text, options) }
    } catch (error) {
      result = { error }
    }
    const end = log.timeline.length
    log.attempts.push({ ...facts, result, end, traceless: end === position && a.inbox === inbox })
    if (!('id' in result)) {
      Object.assign(log.wake, wakeBefore)
      return
    }
    const { id } = result
    if (wasDisposed) log.problems.push(`V2: ${kind}("${text}") was accepted after dispose() resolved`)
    const trigger = on ? { on, trigger: position - 1 } : {}
    log.sent.set(id, { id, kind, text, options, origin, windowAtCall: window, durableBefore, ...trigger })
    if (kind !== 'inject' && !log.enqueued.has(id)) log.unprocessed.add(id)
    if (kind === 'inject' && origin === 'step' && window)
      staging.staged.push({ id, keeps: staging.keepCancels })
    if (options.ifBusy === 'interrupt') {
      // R47: an interrupt cancels what runs keeping the inbox, like cancel(user, {keepInbox}).
      staging.keepCancels++
      log.keepInboxAt.push(position)
    }
    if (id <= before) log.problems.push(`R3: id ${id} of "${text}" does not sort after ${before}`)
    if (id > log.maxId) log.maxId = id
    // R42: asked at once (from a subscriber too); it settles when the id's fate is decided.
    const entry: { settled?: Outcome; rejected?: unknown } = {}
    log.outcomes.set(id, entry)
    a.outcome(id as Parameters<Agent['outcome']>[0]).then(
      (o) => {
        entry.settled = o
      },
      (e: unknown) => {
        entry.rejected = e
      },
    )
  }

  return send
}
