import { InvariantViolation } from '../contracts/errors.js'
import type { AgentEvent } from '../contracts/events.js'
import type { AgentMessageId } from '../contracts/messages.js'

/**
 * The outstanding inbox ids per agent (R30): ids that were enqueued and have not been dequeued
 * or discarded yet. Agents with nothing outstanding have no entry, so an empty map means "zero
 * everywhere".
 */
export type ConservationState = ReadonlyMap<string, ReadonlySet<AgentMessageId>>

/** What one event did to the conservation state; `violation` names the id and the event. */
export type ConservationResult = { readonly state: ConservationState; readonly violation?: string }

/** The state before any event: nothing outstanding. */
export const emptyConservationState: ConservationState = new Map()

/** What an inbox event asks of the outstanding set, decided without changing anything. */
type InboxEffect =
  | { readonly kind: 'none' }
  | { readonly kind: 'add'; readonly agentId: string; readonly id: AgentMessageId }
  | { readonly kind: 'remove'; readonly agentId: string; readonly ids: readonly AgentMessageId[] }
  | { readonly kind: 'violation'; readonly detail: string }

const NONE: InboxEffect = { kind: 'none' }

const notOutstanding = (agentId: string, type: string, id: string): string =>
  `agent '${agentId}': ${type} of message ${id}, which is not outstanding ` +
  '(it was never enqueued, or was already dequeued or discarded)'

/**
 * The rule itself, shared by the pure reducer and the operator so that both judge events the same
 * way: `isOutstanding` is the only view of the state it needs. O(1) per event (O(batch) for a
 * discard).
 */
const inboxEffect = (
  isOutstanding: (agentId: string, id: AgentMessageId) => boolean,
  event: AgentEvent,
): InboxEffect => {
  switch (event.type) {
    case 'agent/inbox/enqueue': {
      const { agentId, message } = event
      return isOutstanding(agentId, message.id)
        ? {
            kind: 'violation',
            detail:
              `agent '${agentId}': agent/inbox/enqueue of message ${message.id}, which is already ` +
              'outstanding (each id is enqueued once)',
          }
        : { kind: 'add', agentId, id: message.id }
    }
    case 'agent/inbox/dequeue': {
      const { agentId, message } = event
      return isOutstanding(agentId, message.id)
        ? { kind: 'remove', agentId, ids: [message.id] }
        : { kind: 'violation', detail: notOutstanding(agentId, event.type, message.id) }
    }
    case 'agent/inbox/discard': {
      const { agentId, messages } = event
      if (messages.length === 0) {
        return {
          kind: 'violation',
          detail:
            `agent '${agentId}': agent/inbox/discard with an empty batch ` +
            '(a discard names at least one message)',
        }
      }
      const seen = new Set<AgentMessageId>()
      for (const { id } of messages) {
        if (seen.has(id) || !isOutstanding(agentId, id)) {
          return { kind: 'violation', detail: notOutstanding(agentId, event.type, id) }
        }
        seen.add(id)
      }
      return { kind: 'remove', agentId, ids: messages.map((m) => m.id) }
    }
    default:
      // `agent/status` idle included: parked items and staged steering may legitimately remain,
      // so zero-at-idle is not checked here (see `outstandingInbox`).
      return NONE
  }
}

/**
 * One step of R30 FIFO conservation, as a pure reducer: `enqueue` adds `message.id` to the
 * agent's outstanding ids, `dequeue` removes it, `discard` removes its whole batch.
 *
 * Rules:
 * 1. An id enqueued while outstanding, a dequeue or discard of an id that is not outstanding
 *    (including one named twice in the same batch), and an empty discard batch are violations.
 * 2. On a violation the returned state is the input state (same object) and `violation` names
 *    the agent, the event type and the id; nothing is applied.
 * 3. Events that are not `agent/inbox/*` return the input state object unchanged, with no
 *    violation. That includes `agent/status` `idle`: parked items may remain (R8).
 * 4. Never mutates its input. An update copies the touched agent's set, so this reducer costs
 *    O(outstanding ids of that agent); `inboxConservation()` therefore does not fold it but shares
 *    its rule with one mutable set per subscription (O(1) per event).
 *
 * @param state The outstanding ids before `event`.
 * @param event Any live event.
 * @returns The outstanding ids after `event`, and the violation's detail if there was one.
 */
export const conservationStep = (state: ConservationState, event: AgentEvent): ConservationResult => {
  const effect = inboxEffect((agentId, id) => state.get(agentId)?.has(id) ?? false, event)
  switch (effect.kind) {
    case 'none':
      return { state }
    case 'violation':
      return { state, violation: effect.detail }
    case 'add': {
      const ids = new Set(state.get(effect.agentId))
      ids.add(effect.id)
      return { state: new Map(state).set(effect.agentId, ids) }
    }
    case 'remove': {
      const ids = new Set(state.get(effect.agentId))
      for (const id of effect.ids) ids.delete(id)
      const next = new Map(state)
      if (ids.size === 0) next.delete(effect.agentId)
      else next.set(effect.agentId, ids)
      return { state: next }
    }
  }
}

/**
 * A mutable R30 tracker for one subscription or one fold: the same rule as `conservationStep`,
 * applied in place in O(1) per event. Not exported from the package.
 */
export const createConservationTracker = (
  /** Ids outstanding before the first event (items restored on resume, R51), for any agent. */
  initial: Iterable<AgentMessageId> = [],
): {
  /** Applies `event`; returns the violation's detail (and applies nothing) if there is one. */
  readonly step: (event: AgentEvent) => string | undefined
  /** The outstanding ids now (live view; agents with nothing outstanding are absent). */
  readonly outstanding: ConservationState
} => {
  const outstanding = new Map<string, Set<AgentMessageId>>()
  const restored = new Set(initial)
  /** A restored id counts as the first agent's own once that agent's events name it. */
  const adopt = (agentId: string, id: AgentMessageId): boolean => {
    if (!restored.delete(id)) return false
    const ids = outstanding.get(agentId)
    if (ids === undefined) outstanding.set(agentId, new Set([id]))
    else ids.add(id)
    return true
  }
  const isOutstanding = (agentId: string, id: AgentMessageId): boolean =>
    (outstanding.get(agentId)?.has(id) ?? false) || adopt(agentId, id)
  const step = (event: AgentEvent): string | undefined => {
    const effect = inboxEffect(isOutstanding, event)
    switch (effect.kind) {
      case 'none':
        return undefined
      case 'violation':
        return effect.detail
      case 'add': {
        const ids = outstanding.get(effect.agentId)
        if (ids === undefined) outstanding.set(effect.agentId, new Set([effect.id]))
        else ids.add(effect.id)
        return undefined
      }
      case 'remove': {
        const ids = outstanding.get(effect.agentId)
        for (const id of effect.ids) ids?.delete(id)
        if (ids?.size === 0) outstanding.delete(effect.agentId)
        return undefined
      }
    }
  }
  return { step, outstanding }
}

/**
 * The ids still outstanding after `events` (R30), per agent: the zero-at-idle half of R30 that
 * `inboxConservation()` leaves out, because only the caller knows whether items were parked.
 *
 * After `await agent.whenIdle()` in a scenario with no parked items and no leftover steering,
 * `outstandingInbox(events).size` must be 0.
 *
 * @example
 * ```ts
 * const events: AgentEvent[] = []
 * agent.events$.subscribe(e => events.push(e))
 * agent.followup('hi')
 * await agent.whenIdle()
 * expect(outstandingInbox(events).size).toBe(0)
 * ```
 *
 * @param events Live events of one or more agents, in publication order, from the first event.
 * @returns The outstanding ids per agent; agents with none are absent.
 * @throws InvariantViolation (`R30`) at the first event that breaks conservation.
 */
export const outstandingInbox = (events: Iterable<AgentEvent>): ConservationState => {
  const tracker = createConservationTracker()
  for (const event of events) {
    const violation = tracker.step(event)
    if (violation !== undefined) throw new InvariantViolation('R30', violation)
  }
  return tracker.outstanding
}
