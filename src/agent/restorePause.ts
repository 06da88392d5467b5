import type { Turn } from '../machine/activity.js'
import type { Effect } from '../machine/effects.js'
import type { DeliveryState } from '../machine/state.js'
import type { PausedTurn } from '../session/pausedTurn.js'

/**
 * The delivery state of a session that reopens paused (R65): its last turn is the activity again,
 * in the phase it stopped in, with its window open and `status` `'paused'`; and the effect that
 * resumes it (the calls the pause does not hold run again, the pending ones are timed again).
 * The resume is scheduled, as a restored inbox's wake is (R6): what the caller does right after
 * `createAgent` returns comes first. A cancel then aborts the calls before any of them runs again
 * (a PostgreSQL client that cancels a session nobody drives has an agent with no tools, R58), and
 * an owner applies the requests that waited before the calls start.
 */
export const pausedState = (
  paused: PausedTurn,
  id: number,
): { readonly state: Partial<DeliveryState>; readonly owed: readonly Effect[] } => {
  const approval = paused.reason === 'approval'
  const turn: Turn = {
    kind: 'turn',
    id,
    turn: paused.turn,
    step: paused.step,
    phase: approval ? 'tools' : 'budget-paused',
    stepOpen: approval,
    draft: approval ? { content: paused.content, toolCalls: paused.calls, finish: 'tool-calls' } : EMPTY,
    toolResults: approval ? paused.recorded : 0,
    concluded: false,
    started: [],
    outcomes: [],
    maxTokens: false,
    approvals: approval ? paused.approvals : undefined,
  }
  const state: Partial<DeliveryState> = {
    activity: turn,
    nextActivity: id + 1,
    status: 'paused',
    window: true,
    wakeScheduled: false,
  }
  const owed = paused.calls.flatMap((_, i) =>
    i >= paused.recorded && paused.approvals[i] !== 'pending' && paused.approvals[i] !== 'denied' ? [i] : [],
  )
  const resume = { type: 'turn/resume', activity: id, reasons: paused.reasons, owed } as const
  return { state, owed: approval ? [{ kind: 'schedule', input: resume }] : [] }
}

const EMPTY = Object.freeze({ content: Object.freeze([]), toolCalls: Object.freeze([]) })
