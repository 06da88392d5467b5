/** The live events of a turn: status, cancels, settling, errors, streaming, tools, pauses, compaction. */
import * as z from 'zod/mini'
import { cancelCauseSchema, toolResultCodes } from '../messages/schemas.js'
import { compactionShape } from './historyEvents.js'
import { amount, countFromZero, position, thrown } from './leaves.js'
import { live, liveTurn } from './live.js'
import { budgetPauseShape } from './pauseEvents.js'
import { approvalRequestShape } from './toolEvents.js'

/** How a turn settled (`agent/settled`). */
export const settledReason = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('completed') }),
  z.strictObject({ kind: z.literal('aborted') }),
  z.strictObject({ kind: z.literal('error'), error: thrown }),
])

/**
 * What a compaction came to (R74, R75): `compacted` with what the durable `compaction` event
 * holds; `skipped` when the messages before the kept tail were empty (nothing is appended);
 * `aborted` by `cancel()` or `dispose()`; `error` when the summariser failed.
 */
export const compactionResult = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('compacted'), ...compactionShape }),
  /** Nothing to compact; or `reason: 'budget'`: the budget is spent and the summariser is the model (R80). */
  z.strictObject({ kind: z.literal('skipped'), reason: z.optional(z.literal('budget')) }),
  z.strictObject({ kind: z.literal('aborted') }),
  z.strictObject({ kind: z.literal('error'), error: thrown }),
])

export const liveTurnEvents = [
  live('agent/status', { status: z.enum(['idle', 'running', 'paused']) }),
  live('agent/cancel-requested', { cause: cancelCauseSchema }),
  live('agent/settled', { turn: liveTurn, reason: settledReason }),
  live('agent/error', { turn: liveTurn, step: countFromZero, error: thrown }),
  /**
   * A streamed text or reasoning delta of the running step. Not in the contract's table: added so
   * that apps can show text as it arrives. Deltas are live only; the durable record is the step's
   * `assistant/message`.
   */
  live('agent/stream/delta', {
    turn: liveTurn,
    step: countFromZero,
    kind: z.enum(['text', 'reasoning']),
    text: z.string(),
  }),
  /** A call waits for a person's decision (R61): the same data as its durable `approval/request`. */
  live('agent/approval/requested', approvalRequestShape),
  /** A budget limit was passed and the turn paused at its step boundary (R80). */
  live('agent/budget/exceeded', budgetPauseShape),
  /** A tool call was dispatched: its `execute` is called now (R72). */
  live('agent/tool/start', {
    turn: liveTurn,
    step: position,
    callId: z.string(),
    /** The call's position in its step (model order, from 0): it names the call when ids repeat. */
    index: countFromZero,
    name: z.string(),
  }),
  /**
   * A tool call's result is known (R72), before its durable `tool/call`/`tool/result` pair: every
   * call of a step gets one, whether it ran, was denied, cancelled or never dispatched.
   */
  live('agent/tool/end', {
    turn: liveTurn,
    step: position,
    callId: z.string(),
    /** The call's position in its step (model order, from 0). */
    index: countFromZero,
    isError: z.boolean(),
    code: z.optional(z.enum(toolResultCodes)),
  }),
  /**
   * A request failed with a retryable error before its first streamed event and is made again
   * after `delayMs` on the agent's scheduler (R117): `attempt` counts the retries of this step's
   * request, from 1; `error` is what the failed request threw.
   */
  live('agent/request/retry', {
    turn: liveTurn,
    step: position,
    attempt: position,
    delayMs: amount,
    error: thrown,
  }),
  /** A compaction began at a turn boundary (R74); `turn` is the last turn that ended. */
  live('agent/compaction/start', { turn: liveTurn }),
  /** A compaction ended; its `compaction` event, when it wrote one, is already appended (R74). */
  live('agent/compaction/end', { turn: liveTurn, result: compactionResult }),
] as const
