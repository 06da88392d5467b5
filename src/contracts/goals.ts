import type { GoalSource } from './messages.js'

export type GoalPhase = 'active' | 'paused' | 'blocked' | 'complete'

/** The full state of a goal after a mutation: what a round-0 change carries (R32). */
export type GoalState = {
  readonly goalId: string
  /** 1 at `create`, +1 per mutation. */
  readonly revision: number
  readonly objective: string
  readonly phase: GoalPhase
  /** The round cap; `null` means no cap. */
  readonly maxRounds: number | null
  /** Why the goal is blocked (only while `phase` is `blocked`). */
  readonly blocked?: { readonly code: string; readonly message: string }
}

/** What `clear()` leaves: the goal is gone. */
export type GoalTombstone = { readonly goalId: string; readonly revision: number; readonly cleared: true }

/** A goal mutation as stored in `source.change` of a round-0 `user/message`. */
export type GoalChange = GoalState | GoalTombstone

export const isTombstone = (change: GoalChange): change is GoalTombstone => 'cleared' in change

/** The fold's result (R34): the current goal (if any) and how many rounds it has started. */
export type GoalView = { readonly goal: GoalState | undefined; readonly rounds: number }

export type { GoalSource }
