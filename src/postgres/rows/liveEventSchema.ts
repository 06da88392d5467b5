import { z } from 'zod'
import { contentBlockSchema, messageSourceSchema, toolResultCodes } from '../../messages/schemas.js'
import { compactionData } from '../../session/sessionEventSchema.js'
import type { RemoteAgentEvent } from './liveEvents.js'

const agentId = z.string()
const turn = z.int().min(0)
const id = z.string().min(1)
const message = z.strictObject({
  id,
  content: z.array(contentBlockSchema).min(1),
  source: messageSourceSchema,
})
const live = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.strictObject({ type: z.literal(type), agentId, ...shape })

/** What was thrown, as JSON: absent when the owner's was `undefined` or a symbol (JSON has neither). */
const thrown = z.unknown().optional()

/**
 * A live event as a follower receives it (R56), checked strictly like a transcript row: the
 * owner's `AgentEvent`s (errors arrive as plain JSON, `{name, message}` for an `Error`) and the
 * owner's own `remote/events-lost` markers.
 */
export const liveEventSchema = z.discriminatedUnion('type', [
  live('agent/inbox/enqueue', {
    message,
    placement: z.enum(['queued', 'steering']),
    index: z.int().min(0).optional(),
  }),
  live('agent/inbox/dequeue', { message }),
  live('agent/inbox/discard', {
    messages: z.array(message),
    reason: z.enum(['cancel', 'dispose', 'removed', 'expired']),
  }),
  live('agent/inbox/replace', { message }),
  live('agent/inbox/reorder', { ids: z.array(id) }),
  live('agent/status', { status: z.enum(['idle', 'running', 'paused']) }),
  live('agent/cancel-requested', {
    cause: z.discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('user') }),
      z.strictObject({ kind: z.literal('parent') }),
    ]),
  }),
  live('agent/settled', {
    turn,
    reason: z.discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('completed') }),
      z.strictObject({ kind: z.literal('aborted') }),
      z.strictObject({ kind: z.literal('error'), error: thrown }),
    ]),
  }),
  live('agent/error', { turn, step: z.int().min(0), error: thrown }),
  live('agent/stream/delta', {
    turn,
    step: z.int().min(0),
    kind: z.enum(['text', 'reasoning']),
    text: z.string(),
  }),
  live('agent/approval/requested', {
    turn,
    step: z.int().min(1),
    callId: z.string(),
    index: z.int().min(0).optional(),
    name: z.string(),
    arguments: z.string(),
  }),
  live('agent/budget/exceeded', {
    turn,
    step: z.int().min(0),
    usage: z.strictObject({ totalTokens: z.number().min(0), requests: z.int().min(0) }),
    limits: z.strictObject({ maxTotalTokens: z.number().optional(), maxRequests: z.int().optional() }),
  }),
  live('agent/tool/start', {
    turn,
    step: z.int().min(1),
    callId: z.string(),
    index: z.int().min(0),
    name: z.string(),
  }),
  live('agent/tool/end', {
    turn,
    step: z.int().min(1),
    callId: z.string(),
    index: z.int().min(0),
    isError: z.boolean(),
    code: z.enum(toolResultCodes).optional(),
  }),
  live('agent/compaction/start', { turn }),
  live('agent/request/retry', {
    turn,
    step: z.int().min(1),
    attempt: z.int().min(1),
    delayMs: z.number().min(0),
    error: thrown,
  }),
  live('agent/compaction/end', {
    turn,
    result: z.discriminatedUnion('kind', [
      compactionData.extend({ kind: z.literal('compacted') }),
      z.strictObject({ kind: z.literal('skipped') }),
      z.strictObject({ kind: z.literal('aborted') }),
      z.strictObject({ kind: z.literal('error'), error: thrown }),
    ]),
  }),
  z.strictObject({
    type: z.literal('remote/events-lost'),
    reason: z.enum(['too-large', 'unsent', 'missed', 'invalid']),
    count: z.int().min(1).optional(),
    eventType: z.string().optional(),
  }),
]) as unknown as z.ZodType<RemoteAgentEvent>
