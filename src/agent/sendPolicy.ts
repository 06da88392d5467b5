import { AgentBusyError, InboxFullError, TurnMismatchError } from '../contracts/errors.js'
import type { SendOptions } from '../contracts/messages.js'
import { activeWork, type DeliveryState, dequeuingHead } from '../machine/state.js'
import type { PendingSends } from '../runtime/driver.js'

/** Whether an admission or turn is active, a wake is scheduled, or a waking item waits (R47). */
const isBusy = (s: DeliveryState, pending: PendingSends): boolean =>
  activeWork(s) !== undefined || s.wakeScheduled || s.waking > 0 || pending.waking > 0

/**
 * The refusals a send decides at call time, before any id (R47–R49), so that nothing happens
 * when one throws. A send still waiting in the trampoline counts as accepted already, for "busy"
 * and for the bound: two sends from one subscriber cannot both pass `maxQueued: 1`.
 */
export const checkSendPolicy = (
  s: DeliveryState,
  pending: PendingSends,
  options: SendOptions,
  maxQueued: number | undefined,
  call: string,
): void => {
  // Where the send goes, seen from now: steering while the window is open, else the queue.
  const steering = options.target === 'next-step' && s.window
  const queued = options.target === 'next-turn' || (options.wakeup && !steering)
  if (options.turn !== undefined) {
    const current = s.window ? (activeWork(s)?.turn ?? null) : null
    if (current !== options.turn) throw new TurnMismatchError(call, options.turn, current)
  }
  if (options.ifBusy === 'reject' && queued && isBusy(s, pending))
    throw new AgentBusyError(
      call,
      "ifBusy: 'reject' refuses it; send without ifBusy to queue it, or with ifBusy: 'interrupt' to run it next",
    )
  // Injections are not counted, and nothing is refused while dispose() unwinds (R48).
  if (maxQueued === undefined || s.disposal !== 'none' || !(queued || (steering && options.wakeup))) return
  let waiting = s.queue.size - (dequeuingHead(s) ? 1 : 0) + pending.queued
  for (const entry of s.outbox) if (entry.kind === 'steering') waiting++
  if (waiting >= maxQueued) throw new InboxFullError(call, maxQueued)
}
