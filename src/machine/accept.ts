import type { AgentMessage, AgentMessageId, UserMessageData } from '../contracts/messages.js'
import { fifoPush } from './fifo.js'
import type { InputOf } from './inputs.js'
import type { Reduction } from './reduction.js'
import { activeWork, type DeliveryState, type QueuedItem } from './state.js'

/**
 * A send from the queue stream (R3, R4, R5, R6): `next-turn` is queued (waking or parked);
 * `next-step` with wakeup is steering while the window is open, else queued like a followup.
 * The id and the frozen snapshot were made before the input entered. While `dispose()` unwinds,
 * it is accepted and discarded at once (R29).
 */
export const acceptQueued = (r: Reduction, { message, target, wakeup, text }: InputOf<'queue'>): void => {
  const s = r.state
  const steering = target === 'next-step' && s.window
  if (s.disposal !== 'none') {
    r.live({
      type: 'agent/inbox/enqueue',
      agentId: r.state.agentId,
      message,
      placement: steering ? 'steering' : 'queued',
    })
    r.live({ type: 'agent/inbox/discard', agentId: r.state.agentId, messages: [message] })
    return
  }
  if (steering) {
    r.set({ outbox: [...s.outbox, { kind: 'steering', message }] })
    r.live({ type: 'agent/inbox/enqueue', agentId: r.state.agentId, message, placement: 'steering' })
    return
  }
  r.setQueue(fifoPush(s.queue, queuedItem(s, message, wakeup, text)), s.waking + (wakeup ? 1 : 0))
  r.live({ type: 'agent/inbox/enqueue', agentId: r.state.agentId, message, placement: 'queued' })
  // R6: the wake is deferred, so every send of this stack sees the same pre-admission state.
  if (wakeup && s.activity === null && !s.wakeScheduled && s.disposal === 'none') {
    r.set({ wakeScheduled: true })
    r.effect({ kind: 'schedule', input: { type: 'wake' } })
  }
}

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
export const acceptInjected = (r: Reduction, { message }: InputOf<'inject'>): void =>
  acceptContext(r, message)

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
  if (s.window && s.disposal === 'none') return r.set({ outbox: [...s.outbox, { kind: 'context', data }] })
  r.durable({ type: 'user/message', data })
  // R36: appends outside a turn are flushed right away (while disposing, dispose() flushes).
  if (!activeWork(s) && s.disposal === 'none') r.effect({ kind: 'persist' })
}
