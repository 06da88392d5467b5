import { z } from 'zod'
import type { InboxRecord } from '../contracts/inbox.js'
import { contentBlockSchema, messageSourceSchema } from '../messages/schemas.js'

const id = z.string().min(1)
const turn = z.int().min(1)
const seq = z.int().min(1)

/** An accepted message as the journal holds it: exactly `id`, `content` (non-empty), `source`. */
const message = z.strictObject({
  id,
  content: z.array(contentBlockSchema).min(1),
  source: messageSourceSchema,
})

/**
 * A delivered outcome: `seq` always; `turn` for a prompt and a steering (a context has it when it
 * was appended inside a turn); `step` for a steering only.
 */
const delivered = z
  .strictObject({
    kind: z.literal('delivered'),
    as: z.enum(['prompt', 'steering', 'context']),
    seq,
    turn: turn.optional(),
    step: z.int().min(1).optional(),
  })
  .refine((o) => o.as === 'context' || o.turn !== undefined, {
    message: 'a delivered prompt or steering needs its turn',
  })
  .refine((o) => (o.as === 'steering') === (o.step !== undefined), {
    message: 'a delivered steering (and only a steering) has a step',
  })

const outcome = z.discriminatedUnion('kind', [
  delivered,
  z.strictObject({ kind: z.literal('blocked'), reason: z.unknown().optional() }),
  z.strictObject({
    kind: z.literal('discarded'),
    reason: z.enum(['cancel', 'dispose', 'removed', 'expired']),
  }),
  z.strictObject({ kind: z.literal('refused'), error: z.unknown().optional() }),
])

/**
 * One record of a file store's inbox journal (R50), validated strictly like a log line: unknown
 * ops and unknown keys are refused; messages are checked by the same schemas as a send's.
 */
export const inboxRecordSchema = z.discriminatedUnion('op', [
  z.strictObject({
    op: z.literal('add'),
    message,
    placement: z.enum(['queued', 'parked', 'steering', 'context']),
    at: z.literal('head').optional(),
    turn: turn.optional(),
    maxSteps: z.int().min(1).optional(),
  }),
  z.strictObject({ op: z.literal('replace'), message }),
  z.strictObject({ op: z.literal('move'), id, before: id.nullable() }),
  z.strictObject({ op: z.literal('promote'), id, to: z.enum(['steering', 'head']) }),
  z.strictObject({ op: z.literal('settle'), id, outcome }),
]) as unknown as z.ZodType<InboxRecord>
