import type { SendOptions } from '../contracts/messages.js'
import { type CallAt, isInScope, sameCall } from './callRef.js'
import type { Input } from './inputs.js'
import { activeWork, type DeliveryState, dequeuingHead } from './state.js'

/**
 * What waits in the trampoline, not reduced yet: inputs made earlier in the delivery in progress
 * (a send or a decision from a subscriber). At top level it is empty, since the trampoline has
 * drained before a call returns.
 */
export type Ahead = readonly Input[]

/** A call the public surface is about to make, asked before anything happens. */
export type Request =
  /** A send, with the agent's `maxQueued` (R47–R49). */
  | { readonly kind: 'send'; readonly options: SendOptions; readonly maxQueued: number | undefined }
  /** `approve(call)` / `deny(call)` (R62): `callId` is what the caller passed, for the error. */
  | { readonly kind: 'decide'; readonly at: CallAt; readonly callId: string }
  /** `cancelToolCall(call)` (R71). */
  | { readonly kind: 'cancel-call'; readonly at: CallAt; readonly callId: string }

/** Why a request is refused, as data: the façade turns it into the error the contract names. */
export type Refusal =
  | { readonly kind: 'turn-mismatch'; readonly expected: number; readonly current: number | null }
  | { readonly kind: 'busy' }
  | { readonly kind: 'inbox-full'; readonly limit: number }
  | { readonly kind: 'not-pending'; readonly callId: string }
  | { readonly kind: 'not-running'; readonly callId: string }

const NOT_AHEAD = Object.freeze({ queued: 0, waking: 0 })

/**
 * Whether `request` may be made now, the `state.can` of XState: `undefined` when it may, else why
 * not. Pure: it reads the latest state and what waits in the trampoline (`ahead`), which counts
 * as done already, so that two sends from one subscriber cannot both pass `maxQueued: 1`, and a
 * call decided earlier in the same delivery is no longer pending for a later call.
 */
export const check = (state: DeliveryState, ahead: Ahead, request: Request): Refusal | undefined => {
  switch (request.kind) {
    case 'send':
      return checkSend(state, ahead, request.options, request.maxQueued)
    case 'decide':
      return isInScope(state, request.at, 'pending') && !decidedAhead(state, ahead, request.at)
        ? undefined
        : { kind: 'not-pending', callId: request.callId }
    case 'cancel-call':
      return isInScope(state, request.at, 'unsettled') && !decidedAhead(state, ahead, request.at)
        ? undefined
        : { kind: 'not-running', callId: request.callId }
  }
}

/** The refusals a send decides at call time, before any id (R47–R49). */
const checkSend = (
  s: DeliveryState,
  ahead: Ahead,
  options: SendOptions,
  maxQueued: number | undefined,
): Refusal | undefined => {
  // Where the send goes, seen from now: steering while the window is open, else the queue.
  const steering = options.target === 'next-step' && s.window
  const queued = options.target === 'next-turn' || (options.wakeup && !steering)
  if (options.turn !== undefined) {
    const current = s.window ? (activeWork(s)?.turn ?? null) : null
    if (current !== options.turn) return { kind: 'turn-mismatch', expected: options.turn, current }
  }
  const sends = ahead.length === 0 ? NOT_AHEAD : sendsAhead(ahead)
  if (options.ifBusy === 'reject' && queued && isBusy(s, sends.waking)) return { kind: 'busy' }
  // Injections are not counted, and nothing is refused while dispose() unwinds (R48).
  if (maxQueued === undefined || s.disposal !== 'none' || !(queued || (steering && options.wakeup))) return
  let waiting = s.queue.size - (dequeuingHead(s) ? 1 : 0) + sends.queued
  for (const entry of s.outbox) if (entry.kind === 'steering') waiting++
  return waiting >= maxQueued ? { kind: 'inbox-full', limit: maxQueued } : undefined
}

/** An admission or turn is active, a wake is scheduled, or a waking item waits (R47). */
const isBusy = (s: DeliveryState, wakingAhead: number): boolean =>
  activeWork(s) !== undefined || s.wakeScheduled || s.waking > 0 || wakingAhead > 0

/** The sends bound for the queue or the outbox that wait in the trampoline, and the waking ones. */
const sendsAhead = (ahead: Ahead): { readonly queued: number; readonly waking: number } => {
  let queued = 0
  let waking = 0
  for (const input of ahead)
    if (input.type === 'queue') {
      queued++
      if (input.wakeup) waking++
    }
  return { queued, waking }
}

/**
 * Whether something waiting will decide or end the call at `at` first (R62–R64, R71): a decision or
 * cancel of that call, or a send with `onApproval: 'deny'`, a cancel, an interrupting send or a
 * dispose, which end every pending call. A `cancel()` already reduced whose abort has not run yet
 * (`cancelling`) ends them too (R25): a decision made from its `cancel-requested` is late.
 */
const decidedAhead = (s: DeliveryState, ahead: Ahead, at: CallAt): boolean => {
  if (s.cancelling) return true
  for (const input of ahead) {
    switch (input.type) {
      case 'decide':
      case 'cancel-call':
        if (sameCall(input, at)) return true
        break
      case 'cancel':
      case 'dispose':
        return true
      case 'queue':
        if (input.deny || input.interrupt) return true
        break
      case 'inject':
        if (input.deny) return true
        break
    }
  }
  return false
}
