import { z } from 'zod'
import type { SessionEvent } from '../contracts/events.js'
import { contentBlockSchema, messageSourceSchema } from '../messages/schemas.js'
import { isPlainEvent } from './plainEvent.js'

const turn = z.int().min(1)
const step = z.int().min(1)
const content = z.array(contentBlockSchema)
const id = z.string().min(1)
const usage = z.strictObject({
  inputTokens: z.number().nonnegative(),
  outputTokens: z.number().nonnegative(),
  cachedInputTokens: z.number().nonnegative().optional(),
  estimated: z.literal(true).optional(),
})
const toolCall = z.strictObject({
  type: z.literal('tool-call'),
  id: z.string(),
  name: z.string(),
  arguments: z.string(),
})

const count = z.number().nonnegative()
const budgetUsage = z.strictObject({ totalTokens: count, requests: count })
const budgetLimits = z.strictObject({ maxTotalTokens: count.optional(), maxRequests: count.optional() })

const reason = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('completed') }),
  z.strictObject({ kind: z.literal('max-tokens') }),
  z.strictObject({ kind: z.literal('aborted') }),
  z.strictObject({ kind: z.literal('disposed') }),
  z.strictObject({ kind: z.literal('budget') }),
  z.strictObject({ kind: z.literal('max-steps') }),
  z.strictObject({ kind: z.literal('error'), step: z.int().min(0), message: z.string() }),
])
const trigger = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('message'), source: messageSourceSchema, id: id.optional() }),
  z.strictObject({ kind: z.literal('retry') }),
])

/** A compaction's data (R74): also what a live `compaction/end` of a compaction carries. */
export const compactionData = z.strictObject({
  upToSeq: z.int().min(0),
  keptFromSeq: z.int().min(1),
  summary: content.min(1),
  usage: usage.optional(),
})

const event = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  z.strictObject({ seq: z.int().min(1), type: z.literal(type), data })

/**
 * One durable event, validated strictly (unknown types and keys are refused): the same schema
 * checks `history` given to `createAgent` and every line of a file store (R37).
 */
export const sessionEventSchema = z.discriminatedUnion('type', [
  event(
    'user/message',
    z.strictObject({ content: content.min(1), source: messageSourceSchema, id: id.optional() }),
  ),
  event(
    'steering/message',
    z.strictObject({
      turn,
      content: content.min(1),
      source: messageSourceSchema,
      id,
      interrupt: z.literal(true).optional(),
    }),
  ),
  event('turn/start', z.strictObject({ turn, trigger })),
  event('turn/end', z.strictObject({ turn, reason })),
  event('step/start', z.strictObject({ turn, step })),
  event(
    'step/end',
    z.strictObject({ turn, step, interrupted: z.literal(true).optional(), usage: usage.optional() }),
  ),
  event(
    'assistant/message',
    z.strictObject({ turn, step, content, usage: usage.optional(), interrupted: z.literal(true).optional() }),
  ),
  event('tool/call', z.strictObject({ turn, step, call: toolCall })),
  event(
    'tool/result',
    z.strictObject({ turn, step, result: contentBlockSchema.refine((b) => b.type === 'tool-result') }),
  ),
  event(
    'approval/request',
    z.strictObject({
      turn,
      step,
      callId: z.string(),
      index: z.int().min(0).optional(),
      name: z.string(),
      arguments: z.string(),
    }),
  ),
  event(
    'approval/decision',
    z.strictObject({
      turn,
      step,
      callId: z.string(),
      index: z.int().min(0).optional(),
      decision: z.enum(['approved', 'denied']),
      reason: z.string().optional(),
      source: messageSourceSchema,
      byMessage: id.optional(),
      cancelled: z.literal(true).optional(),
    }),
  ),
  // Step 0: the turn paused before its first request (R80).
  event(
    'budget/pause',
    z.strictObject({ turn, step: z.int().min(0), usage: budgetUsage, limits: budgetLimits }),
  ),
  event('compaction', compactionData),
  event('rollback', z.strictObject({ toTurn: z.int().min(0) })),
  event('fork', z.strictObject({ from: z.string().min(1), atTurn: z.int().min(0) })),
  event('tools/changed', z.strictObject({ added: z.array(z.string()), removed: z.array(z.string()) })),
]) as unknown as z.ZodType<SessionEvent>

/** Where a list of events breaks the schema or the `seq` order; `undefined` when it is valid. */
export type EventProblem = { readonly index: number; readonly message: string }

/**
 * The schema is asked only for what the fast structural check (`isPlainEvent`) cannot vouch for:
 * the verdict and the message are the schema's, and the common shapes skip its cost.
 */
export const checkEvent = (value: unknown, index: number): EventProblem | undefined => {
  if (isPlainEvent(value)) {
    const seq = (value as SessionEvent).seq
    return seq === index + 1
      ? undefined
      : { index, message: `seq ${seq} out of order (expected ${index + 1})` }
  }
  const result = sessionEventSchema.safeParse(value)
  if (!result.success) {
    const issue = result.error.issues[0]
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : ''
    return { index, message: `${where}${issue?.message ?? 'invalid event'}` }
  }
  const seq = (value as SessionEvent).seq
  if (seq !== index + 1) return { index, message: `seq ${seq} out of order (expected ${index + 1})` }
  return undefined
}
