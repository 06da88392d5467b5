/**
 * The small schemas the event groups share: positions, ids, content, usage, and what was thrown.
 * The message data model itself (content blocks, sources, the cancel cause) is `messages/`'s; the
 * vocabulary builds on those schemas and defines no second copy of them.
 */
import * as z from 'zod/mini'
import type { AgentMessageId } from '../contracts/messages.js'
import { contentBlockSchema } from '../messages/schemas.js'

/** A durable turn or step number: 1, 2, 3 … */
export const position = z.int().check(z.minimum(1))
/** A count of things that may be none: a turn before any turn, a `seq` before any event. */
export const countFromZero = z.int().check(z.minimum(0))
/** An amount of tokens or requests (R73, R80). */
export const amount = z.number().check(z.minimum(0))

/**
 * A message's id (R3): a non-empty string. The one place the vocabulary states the brand: an id
 * read back from a log is the id the agent minted when it accepted the send.
 */
export const messageId = z.custom<AgentMessageId>(
  (value) => typeof value === 'string' && value.length > 0,
  'expected a message id (a non-empty string)',
)

export const content = z.array(contentBlockSchema)
/** What a message says: at least one block. */
export const messageContent = z.array(contentBlockSchema).check(z.minLength(1))

/** `Usage` (R73): the tokens of one model request. */
export const usage = z.strictObject({
  inputTokens: amount,
  outputTokens: amount,
  cachedInputTokens: z.optional(amount),
  estimated: z.optional(z.literal(true)),
})

/**
 * What was thrown, as the agent reports it. `undefined` is a value here, not an absent key: a
 * live event that crossed JSON (R56) lacks the key when the owner's was `undefined` or a symbol.
 */
export const thrown = z.pipe(z.optional(z.unknown()), z.unknown())

/** A flag that is either `true` or absent. */
export const flag = z.optional(z.literal(true))
