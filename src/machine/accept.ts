import type { AgentMessage, AgentMessageId, UserMessageData } from '../contracts/messages.js'
import { denyPending } from './approvals.js'
import { scheduleWake } from './claim.js'
import { cutStep } from './cutStep.js'
import { fifoFrom, fifoPush, fifoToArray } from './fifo.js'
import type { InputOf } from './inputs.js'
import type { QueuedItem } from './queuedItem.js'
import type { Reduction } from './reduction.js'
import { activeWork, type DeliveryState } from './state.js'
import { discard } from './waiting.js'

/**
 * A send from the queue stream (R3, R4, R5, R6): `next-turn` is queued (waking or parked);
 * `next-step` with wakeup is steering while the window is open, else queued like a followup.
 * The id and the frozen snapshot were made before the input entered. While `dispose()` unwinds,
 * it is accepted and discarded at once (R29). An interrupting send (R47) goes to the head of the
 * queue and cancels what runs, keeping the inbox. A guarded steer (R49) whose turn is no longer
 * the one in the window when it is processed expires at once.
 */
export const acceptQueued = (r: Reduction, send: InputOf<'queue'>): void => {
  const { message, target, wakeup, turn } = send
  const s = r.state
  const steering = target === 'next-step' && s.window
  if (s.disposal !== 'none' || (turn !== undefined && !(steering && windowTurn(s) === turn))) {
    const placement = steering || turn !== undefined ? 'steering' : 'queued'
    r.live({ type: 'agent/inbox/enqueue', agentId: s.agentId, message, placement })
    return discard(r, [message], s.disposal !== 'none' ? 'dispose' : 'expired')
  }
  if (steering) {
    stageSteering(r, s, message, turn)
    if (send.deny) denyPending(r, message)
    if (send.cut) cutStep(r, message.id)
    return
  }
  queueItem(r, s, send)
  if (wakeup) scheduleWake(r)
  if (send.deny) denyPending(r, message)
  if (send.interrupt && activeWork(s)) interrupt(r)
}

const stageSteering = (r: Reduction, s: DeliveryState, message: AgentMessage, turn: number | undefined) => {
  r.set({
    outbox: [
      ...s.outbox,
      turn === undefined ? { kind: 'steering', message } : { kind: 'steering', message, guard: turn },
    ],
  })
  r.live({ type: 'agent/inbox/enqueue', agentId: s.agentId, message, placement: 'steering' })
  r.journal(
    turn === undefined
      ? { op: 'add', message, placement: 'steering' }
      : { op: 'add', message, placement: 'steering', turn },
  )
}

const queueItem = (r: Reduction, s: DeliveryState, send: InputOf<'queue'>): void => {
  const { message, wakeup } = send
  const item =
    send.maxSteps === undefined
      ? queuedItem(s, message, wakeup, send.text)
      : limited(message, send.maxSteps, wakeup)
  const queue = send.interrupt ? fifoFrom([item, ...fifoToArray(s.queue)]) : fifoPush(s.queue, item)
  r.setQueue(queue, s.waking + (wakeup ? 1 : 0))
  if (send.interrupt)
    r.live({ type: 'agent/inbox/enqueue', agentId: s.agentId, message, placement: 'queued', index: 0 })
  else r.live({ type: 'agent/inbox/enqueue', agentId: s.agentId, message, placement: 'queued' })
  if (s.journaling) {
    const placement = wakeup ? 'queued' : 'parked'
    const steps = send.maxSteps === undefined ? {} : { maxSteps: send.maxSteps }
    r.journal(
      send.interrupt
        ? { op: 'add', message, placement, at: 'head', ...steps }
        : { op: 'add', message, placement, ...steps },
    )
  }
}

/** The turn whose window is open (an admission counts), or `undefined`. */
export const windowTurn = (s: DeliveryState): number | undefined =>
  s.window ? activeWork(s)?.turn : undefined

/** R47: the running admission or turn is cancelled by the user, keeping the inbox (R25, R26). */
const interrupt = (r: Reduction): void => {
  const cause = { kind: 'user' } as const
  r.set({ cancelling: true }) // as cancel() does: no cut until the clear (R68)
  r.live({ type: 'agent/cancel-requested', agentId: r.state.agentId, cause })
  r.effect({ kind: 'post', input: { type: 'cancel/clear', cause, keepInbox: true, requeue: true } })
}

/** A followup with `maxSteps` (R81) keeps its limit with it; parked, it waits like any other. */
const limited = (message: AgentMessage, maxSteps: number, wakeup: boolean): QueuedItem =>
  wakeup ? { limited: message, maxSteps } : { parked: message }

/**
 * A parked send is wrapped. A waking string send that will wait (behind a running turn or other
 * items) is kept as `{id, text}` (see `QueuedItem`); one that the next wake claims at once is
 * kept whole, since its message would be made again a moment later.
 */
const queuedItem = (
  s: DeliveryState,
  message: AgentMessage,
  wakeup: boolean,
  text: string | undefined,
): QueuedItem => {
  if (!wakeup) return { parked: message }
  const waits = s.activity !== null || s.queue.size > 0
  return waits && text !== undefined ? { id: message.id, text } : message
}

/**
 * A send from the inject stream (R4): staged as context while the window is open, appended as a
 * `user/message` at once otherwise (no turn, no model run, no status change). Never an inbox event.
 */
export const acceptInjected = (r: Reduction, send: InputOf<'inject'>): void => {
  const { message } = send
  // Staged, it waits like steering does, so the journal keeps it (R50); appended, it is delivered.
  if (stagesContext(r.state)) r.journal({ op: 'add', message, placement: 'context' })
  acceptContext(r, send.message)
  if (send.deny) denyPending(r, send.message)
}

/** `ctx.context(input)` from a tool (R22): context without an id. */
export const toolContext = (r: Reduction, { data }: InputOf<'tool/context'>): void => acceptContext(r, data)

/**
 * Context with or without an id (an inject, or a tool's `ctx.context`, R22): staged while the
 * window is open, appended at once otherwise, so it is never dropped (V1).
 */
export const acceptContext = (
  r: Reduction,
  data: UserMessageData & { readonly id?: AgentMessageId },
): void => {
  const s = r.state
  if (stagesContext(s)) return r.set({ outbox: [...s.outbox, { kind: 'context', data }] })
  r.durable({ type: 'user/message', data })
  // R36: appends outside a turn are flushed right away (while disposing, dispose() flushes).
  if (!activeWork(s) && s.disposal === 'none') r.effect({ kind: 'persist' })
}

/** Context waits in the outbox while the window is open, unless `dispose()` unwinds (V1). */
const stagesContext = (s: DeliveryState): boolean => s.window && s.disposal === 'none'
