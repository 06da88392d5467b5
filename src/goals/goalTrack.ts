import type { SessionEvent } from '../contracts/events.js'
import { type GoalChange, type GoalState, type GoalView, isTombstone } from '../contracts/goals.js'
import type { AgentMessageId, GoalSource } from '../contracts/messages.js'
import { GoalEventError } from './errors.js'
import { goalStep, NO_GOAL } from './foldGoal.js'

/**
 * What a goal controller knows, as a pure record: the goal as the transcript folds it, its own
 * changes still on their way there, and whether continuation rounds may be queued (R32).
 * `createGoalController` keeps one, feeds it what the agent publishes and what its callers do,
 * and does what the effects ask for (inject a change, queue a round, publish, report).
 */
export type GoalTrack = {
  /** The goal as the transcript folds it (R34). */
  readonly durable: GoalView
  /** This controller's changes injected and not in the transcript yet, in order. */
  readonly pending: readonly GoalChange[]
  /** Whether rounds may be queued: a user cancel disarms, `create()` and `resume()` arm. */
  readonly armed: boolean
  /** A round came due while a human prompt waited (or was refused as stale): it is queued later. */
  readonly owed: boolean
  /** The round queued and not yet dequeued or discarded: no second one is queued meanwhile. */
  readonly continuationId: AgentMessageId | undefined
}

export type GoalTrackEvent =
  /** A durable event of the agent's transcript. */
  | { readonly type: 'transcript'; readonly event: SessionEvent }
  /** A change about to be injected, and the same change when its inject threw. */
  | { readonly type: 'stage' | 'unstage'; readonly change: GoalChange }
  | { readonly type: 'arm' | 'disarm' }
  /** A round is owed: it came due while a human prompt waited, or was refused at submit. */
  | { readonly type: 'owe' }
  /** A round is due (`mayContinue`) and no human prompt waits. */
  | { readonly type: 'continue' }
  /** The round asked for (`queue-round`) was queued as `id`. */
  | { readonly type: 'queued'; readonly id: AgentMessageId }
  /** Messages that left the inbox (dequeued or discarded). */
  | { readonly type: 'left'; readonly ids: readonly AgentMessageId[] }

export type GoalTrackEffect =
  /** The view changed: publish it on `view$`. */
  | { readonly kind: 'publish' }
  /** The transcript holds a goal event the fold refuses: it is skipped, and reported. */
  | { readonly kind: 'report'; readonly error: GoalEventError }
  /** The goal reached its round cap: block it (a change like any other). */
  | { readonly kind: 'block'; readonly goal: GoalState; readonly rounds: number }
  /** Queue continuation round `round` of `goal`, then feed `queued`. */
  | { readonly kind: 'queue-round'; readonly goal: GoalState; readonly round: number }

export type GoalTrackStep = { readonly track: GoalTrack; readonly effects: readonly GoalTrackEffect[] }

export const NEW_TRACK: GoalTrack = Object.freeze({
  durable: NO_GOAL,
  pending: Object.freeze([]),
  armed: true,
  owed: false,
  continuationId: undefined,
})

/** The goal as the transcript folds it, plus the changes still on their way there. */
export const goalView = (track: GoalTrack): GoalView => {
  const { durable, pending } = track
  const last = pending[pending.length - 1]
  if (!last) return durable
  if (isTombstone(last)) return NO_GOAL
  return { goal: last, rounds: durable.goal?.goalId === last.goalId ? durable.rounds : 0 }
}

/** Whether a round may be queued now: the goal is active, armed, and none is queued. */
export const mayContinue = (track: GoalTrack): boolean =>
  goalView(track).goal?.phase === 'active' && track.armed && track.continuationId === undefined

/**
 * Where a continuation round stands when it is about to be submitted: `current` when it is the
 * next round of the live goal at its revision (it runs unless a human prompt waits), `stale` when
 * the goal is live but the round is not its next one, `dead` when the goal is not live (not
 * active, disarmed, or another goal).
 */
export const roundStanding = (track: GoalTrack, source: GoalSource): 'current' | 'stale' | 'dead' => {
  const { goal, rounds } = goalView(track)
  if (goal?.phase !== 'active' || !track.armed || goal.goalId !== source.goalId) return 'dead'
  return goal.revision === source.revision && source.round === rounds + 1 ? 'current' : 'stale'
}

const NONE: readonly GoalTrackEffect[] = Object.freeze([])
const PUBLISH: readonly GoalTrackEffect[] = Object.freeze([Object.freeze({ kind: 'publish' as const })])
const same = (track: GoalTrack): GoalTrackStep => ({ track, effects: NONE })
const to = (track: GoalTrack, patch: Partial<GoalTrack>): GoalTrackStep => ({
  track: { ...track, ...patch },
  effects: NONE,
})

/**
 * The track after `event`, and what to do. An event that changes nothing (an event the fold
 * ignores, `arm` when armed, a `continue` when no round may be queued …) returns `track` itself.
 * Throws what the fold throws that is not a `GoalEventError` (a bug, not a transcript's content).
 */
export const nextGoalTrack = (track: GoalTrack, event: GoalTrackEvent): GoalTrackStep => {
  switch (event.type) {
    case 'transcript':
      return transcribed(track, event.event)
    case 'stage':
      return to(track, { pending: [...track.pending, event.change] })
    case 'unstage':
      return track.pending.includes(event.change)
        ? to(track, { pending: track.pending.filter((c) => c !== event.change) })
        : same(track)
    case 'arm':
    case 'disarm':
      return track.armed === (event.type === 'arm') ? same(track) : to(track, { armed: event.type === 'arm' })
    case 'owe':
      return track.owed ? same(track) : to(track, { owed: true })
    case 'continue': {
      if (!mayContinue(track)) return same(track)
      const { goal, rounds } = goalView(track) as { goal: GoalState; rounds: number }
      const next = track.owed ? { ...track, owed: false } : track
      if (goal.maxRounds !== null && rounds >= goal.maxRounds)
        return { track: next, effects: [{ kind: 'block', goal, rounds }] }
      return { track: next, effects: [{ kind: 'queue-round', goal, round: rounds + 1 }] }
    }
    case 'queued':
      return to(track, { continuationId: event.id })
    case 'left':
      return track.continuationId !== undefined && event.ids.includes(track.continuationId)
        ? to(track, { continuationId: undefined })
        : same(track)
  }
}

/** A durable event: the fold's next view; a goal message of ours is no longer pending. */
const transcribed = (track: GoalTrack, event: SessionEvent): GoalTrackStep => {
  let durable: GoalView
  try {
    durable = goalStep(track.durable, event)
  } catch (error) {
    // The transcript holds what the fold refuses (a history, a hook's rewrite, an injected round
    // out of turn): the controller runs in the agent's subscribers, so it skips it and says so.
    if (!(error instanceof GoalEventError)) throw error
    return { track, effects: [{ kind: 'report', error }] }
  }
  if (durable === track.durable) return same(track)
  let { pending } = track
  if (event.type === 'user/message' && event.data.source.kind === 'goal') {
    const source = event.data.source as GoalSource
    pending = pending.filter((c) => !(c.goalId === source.goalId && c.revision === source.revision))
  }
  return { track: { ...track, durable, pending }, effects: PUBLISH }
}
