import * as z from 'zod/mini'
import type { ModelEvent } from '../contracts/model.js'
import { safeParse } from '../messages/safeParse.js'

const usageSchema = z.strictObject({
  inputTokens: z.number().check(z.nonnegative()),
  outputTokens: z.number().check(z.nonnegative()),
  cachedInputTokens: z.optional(z.number().check(z.nonnegative())),
})

const modelEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('reasoning'), text: z.string() }),
  z.object({ type: z.literal('tool-call'), id: z.string(), name: z.string(), arguments: z.string() }),
  z.object({
    type: z.literal('finish'),
    reason: z.enum(['stop', 'tool-calls', 'max-tokens']),
    usage: z.optional(usageSchema),
  }),
  // Usage the provider sent before its finish (an input count at the start of a stream, say):
  // kept when the request is then cut or fails (R69, R73).
  z.object({ type: z.literal('usage'), usage: usageSchema }),
])

/** A model event that does not match the contract; the step fails as a request failure (R24). */
export class MalformedModelEventError extends Error {
  override readonly name = 'MalformedModelEventError'
}

/** Validates one model event, keeping only the contract's keys. Throws on a malformed one. */
export const parseModelEvent = (event: unknown): ModelEvent => {
  // Fast path: a plain text/reasoning delta or a bare finish, the common events.
  if (typeof event === 'object' && event !== null) {
    const e = event as { type?: unknown; text?: unknown; reason?: unknown; usage?: unknown }
    if ((e.type === 'text' || e.type === 'reasoning') && typeof e.text === 'string')
      return { type: e.type, text: e.text }
    if (
      e.type === 'finish' &&
      e.usage === undefined &&
      (e.reason === 'stop' || e.reason === 'tool-calls' || e.reason === 'max-tokens')
    )
      return { type: 'finish', reason: e.reason }
  }
  const result = safeParse(modelEventSchema, event)
  if (result.success) return result.data as ModelEvent
  const issue = result.error.issues[0]
  const where = issue?.path.length ? ` at ${issue.path.join('.')}` : ''
  throw new MalformedModelEventError(`malformed model event${where}: ${issue?.message ?? 'invalid'}`)
}
