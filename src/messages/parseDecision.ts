/** The checks of `approve`, `deny` (R62) and `cancelToolCall` (R71), locally and from a client. */
import * as z from 'zod/mini'
import { InvalidInputError } from '../contracts/errors.js'
import type { MessageSource } from '../contracts/messages.js'
import { checkInput, type InputCheck } from './checkInput.js'
import { messageSourceSchema } from './schemas.js'

const USER: MessageSource = Object.freeze({ kind: 'user' })

const decisionOptionsSchema = z.strictObject({
  reason: z.optional(z.string()),
  source: z.optional(messageSourceSchema),
})
const cancelToolCallSchema = z.strictObject({ reason: z.optional(z.string()) })

// Any string: the model chooses call ids and may send an empty one, which must still be decidable.
const checkCallId = (check: InputCheck, callId: unknown, expected: string): void => {
  if (typeof callId !== 'string') check.add(['callId'], `expected ${expected}`)
}

/**
 * A reference that names more than one call (two calls of the step share the model's id, or one's
 * id is another's key): the caller picks one by its key (R62, R71).
 */
export const ambiguousCallError = (call: string, ref: string, keys: readonly string[]): InvalidInputError =>
  new InvalidInputError(call, [
    {
      path: ['callId'],
      message: `${JSON.stringify(ref)} names ${keys.length} calls; pass the key of one of them: ${keys.join(', ')}`,
    },
  ])

/** `approve(call, {reason?, source?})` or `deny(…)`: a string and known options, or it throws. */
export const parseDecision = (
  call: string,
  callId: unknown,
  options: unknown,
): { readonly callId: string; readonly reason: string | undefined; readonly source: MessageSource } =>
  checkInput(call, (check) => {
    checkCallId(check, callId, 'the key or id of a pending tool call (see agent.approvals)')
    const parsed = options === undefined ? {} : check.parse(decisionOptionsSchema, options, ['options'])
    return { callId: callId as string, reason: parsed?.reason, source: parsed?.source ?? USER }
  })

/** `cancelToolCall(call, {reason?})` (R71): a string and known options, or it throws. */
export const parseCancelToolCall = (callId: unknown, options: unknown): { readonly reason?: string } =>
  checkInput('cancelToolCall()', (check) => {
    checkCallId(check, callId, 'the key or id of a running tool call (agent/tool/start names it)')
    const reason =
      options === undefined ? undefined : check.parse(cancelToolCallSchema, options, ['options'])?.reason
    return reason === undefined ? {} : { reason }
  })
