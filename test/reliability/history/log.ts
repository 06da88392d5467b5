/** What a history run records besides the agent's streams: summariser calls, compact() and rollback() calls. */
import type { BudgetLimits, CompactionResult } from '../../../src/contracts/events.js'
import type { AgentStatus, InboxSnapshot, Message } from '../../../src/index.js'
import type { Origin } from '../log.js'
import type { SummaryPlan } from '../schedule.js'

/** One call of the run's summariser, with what it was given and the log's length at that moment. */
export type SummaryCall = {
  /** 1-based: the summary it answers is `sum<n>`. */
  readonly n: number
  readonly plan: SummaryPlan
  readonly messages: readonly Message[]
  /** Timeline and durable log lengths at the call. */
  readonly position: number
  readonly durable: number
}

/** One `compact()` call and how its Promise settled (or what it threw at once). */
export type CompactCall = {
  readonly origin: Origin
  readonly position: number
  end: number
  readonly status: AgentStatus
  readonly keepLastTurns?: number
  readonly disposeCalled: boolean
  readonly finished: boolean
  result?: CompactionResult
  rejected?: unknown
  thrown?: unknown
}

/** What a rollback must leave as it was when it throws (R77, R2). */
export type HistoryView = {
  readonly events: number
  readonly messages: readonly Message[]
  readonly inbox: InboxSnapshot
}

/** One top-level `rollback(turns)` call. */
export type RollbackCall = {
  readonly turns: number
  readonly position: number
  readonly end: number
  readonly status: AgentStatus
  readonly disposeCalled: boolean
  readonly finished: boolean
  readonly before: HistoryView
  readonly after: HistoryView
  readonly error?: unknown
}

/** A `raiseBudget(limits)` the agent accepted, and how many durable events the log held then (R80). */
export type BudgetRaise = { readonly durable: number; readonly limits: BudgetLimits }

export type HistoryLog = {
  readonly summaries: SummaryCall[]
  readonly compacts: CompactCall[]
  readonly rollbacks: RollbackCall[]
  readonly raises: BudgetRaise[]
}

export const newHistoryLog = (): HistoryLog => ({ summaries: [], compacts: [], rollbacks: [], raises: [] })
