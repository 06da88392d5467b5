/** The durable events of tools: calls and results, approvals, and the tool list (R21, R61, R100). */
import * as z from 'zod/mini'
import { messageSourceSchema, toolCallBlockSchema, toolResultBlockSchema } from '../messages/schemas.js'
import { durable } from './durable.js'
import { countFromZero, flag, messageId, position } from './leaves.js'

/** A tool call that waits for approval (R61); its live `agent/approval/requested` holds the same. */
export const approvalRequestShape = {
  turn: position,
  step: position,
  /** The model's id for the call, as it wrote it: it may repeat in a step, or be empty. */
  callId: z.string(),
  /**
   * The call's position in its step (model order, from 0): what names the call, since the model
   * chooses ids. Absent in logs written before it existed (the call is then found by its id).
   */
  index: z.optional(countFromZero),
  name: z.string(),
  /** The call's arguments, as the model wrote them (JSON text). */
  arguments: z.string(),
}

export const toolEvents = [
  durable('tool/call', { turn: position, step: position, call: toolCallBlockSchema }),
  durable('tool/result', { turn: position, step: position, result: toolResultBlockSchema }),
  durable('approval/request', approvalRequestShape),
  /** A person's (or a send's, or a timeout's) decision on one call (R62, R63, R66). */
  durable('approval/decision', {
    turn: position,
    step: position,
    callId: z.string(),
    /** The decided call's position in its step, as in its `approval/request` (absent in older logs). */
    index: z.optional(countFromZero),
    decision: z.enum(['approved', 'denied']),
    reason: z.optional(z.string()),
    source: messageSourceSchema,
    /** The send whose `onApproval: 'deny'` made this decision (R63). */
    byMessage: z.optional(messageId),
    /** `cancelToolCall(callId)` settled the waiting call (R71): its result is `CANCELLED`. */
    cancelled: flag,
  }),
  /** R100: the tools the step after this event sees differ from the previous step's (names). */
  durable('tools/changed', { added: z.array(z.string()), removed: z.array(z.string()) }),
] as const
