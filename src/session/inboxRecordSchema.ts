import * as z from 'zod/mini'
import type { InboxRecord } from '../contracts/inbox.js'
import { contentBlockSchema, messageSourceSchema } from '../messages/schemas.js'

const id = z.string().check(z.minLength(1))
const turn = z.int().check(z.gte(1))
const seq = z.int().check(z.gte(1))

/** An accepted message as the journal holds it: exactly `id`, `content` (non-empty), `source`. */
const message = z.strictObject({
  id,
  content: z.array(contentBlockSchema).check(z.minLength(1)),
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
    turn: z.optional(turn),
    step: z.optional(z.int().check(z.gte(1))),
  })
  .check(
    z.refine((o) => o.as === 'context' || o.turn !== undefined, {
      error: 'a delivered prompt or steering needs its turn',
    }),
    z.refine((o) => (o.as === 'steering') === (o.step !== undefined), {
      error: 'a delivered steering (and only a steering) has a step',
    }),
  )

const outcome = z.discriminatedUnion('kind', [
  delivered,
  z.strictObject({ kind: z.literal('blocked'), reason: z.optional(z.unknown()) }),
  z.strictObject({
    kind: z.literal('discarded'),
    reason: z.enum(['cancel', 'dispose', 'removed', 'expired']),
  }),
  z.strictObject({ kind: z.literal('refused'), error: z.optional(z.unknown()) }),
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
    at: z.optional(z.literal('head')),
    turn: z.optional(turn),
    maxSteps: z.optional(z.int().check(z.gte(1))),
  }),
  z.strictObject({ op: z.literal('replace'), message }),
  z.strictObject({ op: z.literal('move'), id, before: z.nullable(id) }),
  z.strictObject({ op: z.literal('promote'), id, to: z.enum(['steering', 'head']) }),
  z.strictObject({ op: z.literal('settle'), id, outcome }),
]) as unknown as z.ZodMiniType<InboxRecord>
