import type { Between, Claim, StepDraft, Turn } from './activity.js'
import type { DeliveryState } from './state.js'

/**
 * Copies of the reducer's records, field by field.
 *
 * Why not spread: on V8 (Node 20) `{...x}` of an object that was itself made by a spread misses
 * the fast clone path and costs ~290 ns for the 12-field state, against ~15 ns for a literal
 * that lists the fields; the reducer copies a state and an activity on almost every input, and
 * spreads were a third of its time (docs/performance.md#records-copied-field-by-field).
 *
 * `EveryKey<T>` makes each copy list every key, optional ones included, so a field added to a
 * type and forgotten here fails the type-check instead of being dropped silently.
 */
type EveryKey<T> = { readonly [K in keyof Required<T>]: T[K] }

export const copyState = (s: DeliveryState): DeliveryState => {
  const copy: EveryKey<DeliveryState> = {
    agentId: s.agentId,
    queue: s.queue,
    waking: s.waking,
    outbox: s.outbox,
    status: s.status,
    window: s.window,
    wakeScheduled: s.wakeScheduled,
    activity: s.activity,
    lastTurn: s.lastTurn,
    nextActivity: s.nextActivity,
    retryPending: s.retryPending,
    retryError: s.retryError,
    disposal: s.disposal,
    cancelling: s.cancelling,
    releasing: s.releasing,
    suspended: s.suspended,
    journaling: s.journaling,
    usage: s.usage,
    budget: s.budget,
    compactionDue: s.compactionDue,
    autoCompaction: s.autoCompaction,
    requestInput: s.requestInput,
    tools: s.tools,
    maxSteps: s.maxSteps,
    maxRetries: s.maxRetries,
  }
  return copy as DeliveryState
}

export const withTurn = (t: Turn, patch: Partial<Turn>): Turn => {
  const copy: EveryKey<Turn> = {
    kind: t.kind,
    id: t.id,
    turn: t.turn,
    step: t.step,
    phase: t.phase,
    stepOpen: t.stepOpen,
    draft: t.draft,
    toolResults: t.toolResults,
    concluded: t.concluded,
    started: t.started,
    outcomes: t.outcomes,
    maxTokens: t.maxTokens,
    requestError: t.requestError,
    abort: t.abort,
    approvals: t.approvals,
    maxSteps: t.maxSteps,
    stop: t.stop,
    retries: t.retries,
  }
  return Object.assign(copy as Turn, patch)
}

/**
 * `withTurn(t, {draft})` without a patch object or `Object.assign`: the write of every streamed
 * delta (docs/performance.md#one-hop-per-delta).
 */
export const withTurnDraft = (t: Turn, draft: StepDraft): Turn => {
  const copy: EveryKey<Turn> = {
    kind: t.kind,
    id: t.id,
    turn: t.turn,
    step: t.step,
    phase: t.phase,
    stepOpen: t.stepOpen,
    draft,
    toolResults: t.toolResults,
    concluded: t.concluded,
    started: t.started,
    outcomes: t.outcomes,
    maxTokens: t.maxTokens,
    requestError: t.requestError,
    abort: t.abort,
    approvals: t.approvals,
    maxSteps: t.maxSteps,
    stop: t.stop,
    retries: t.retries,
  }
  return copy as Turn
}

export const withClaim = (c: Claim, patch: Partial<Claim>): Claim => {
  const copy: EveryKey<Claim> = {
    kind: c.kind,
    id: c.id,
    turn: c.turn,
    inherited: c.inherited,
    item: c.item,
    phase: c.phase,
    abort: c.abort,
  }
  return Object.assign(copy as Claim, patch)
}

export const withBetween = (b: Between, patch: Partial<Between>): Between =>
  Object.assign({ kind: b.kind, id: b.id, checkpointed: b.checkpointed } satisfies EveryKey<Between>, patch)

/** `withDraft(d, {content})` without a patch object: see `withTurnDraft`. */
export const withContent = (d: StepDraft, content: StepDraft['content']): StepDraft => {
  const copy: EveryKey<StepDraft> = {
    content,
    toolCalls: d.toolCalls,
    finish: d.finish,
    usage: d.usage,
    inputEstimate: d.inputEstimate,
  }
  return copy as StepDraft
}

export const withDraft = (d: StepDraft, patch: Partial<StepDraft>): StepDraft => {
  const copy: EveryKey<StepDraft> = {
    content: d.content,
    toolCalls: d.toolCalls,
    finish: d.finish,
    usage: d.usage,
    inputEstimate: d.inputEstimate,
  }
  return Object.assign(copy as StepDraft, patch)
}
