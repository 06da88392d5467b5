import type * as z from 'zod/mini'
import type { SessionEvent } from '../contracts/events.js'
import { safeParse } from '../messages/safeParse.js'
import { sessionEventSchema as vocabularySchema } from '../vocabulary/sessionEvents.js'
import { isPlainEvent } from './plainEvent.js'

/**
 * One durable event, validated strictly (unknown types and keys are refused): the same schema
 * checks `history` given to `createAgent` and every line of a file store (R37). Defined in the
 * vocabulary (`src/vocabulary/`); published as a schema of `SessionEvent`, so its declared type
 * names none of zod's internal types, which differ between the zod releases an app may have.
 */
// The cast only renames the output type: test/types/vocabulary.test.ts fails the type check when
// `SessionEvent` and the schema's own output disagree on any event.
export const sessionEventSchema = vocabularySchema as unknown as z.ZodMiniType<SessionEvent>

/** Where a list of events breaks the schema or the `seq` order; `undefined` when it is valid. */
export type EventProblem = { readonly index: number; readonly message: string }

const outOfOrder = (seq: number, index: number): EventProblem | undefined =>
  seq === index + 1 ? undefined : { index, message: `seq ${seq} out of order (expected ${index + 1})` }

/**
 * The schema is asked only for what the fast structural check (`isPlainEvent`) cannot vouch for:
 * the verdict and the message are the schema's, and the common shapes skip its cost.
 */
export const checkEvent = (value: unknown, index: number): EventProblem | undefined => {
  if (isPlainEvent(value)) return outOfOrder((value as SessionEvent).seq, index)
  const result = safeParse(sessionEventSchema, value)
  if (!result.success) {
    const issue = result.error.issues[0]
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : ''
    return { index, message: `${where}${issue?.message ?? 'invalid event'}` }
  }
  return outOfOrder((value as SessionEvent).seq, index)
}
