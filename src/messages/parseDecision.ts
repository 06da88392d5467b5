/** The checks of `approve`, `deny` (R62) and `cancelToolCall` (R71), locally and from a client. */
import * as z from 'zod/mini'
import type { MessageSource } from '../contracts/messages.js'
import { checkInput, type InputCheck } from './checkInput.js'
import { messageSourceSchema } from './schemas.js'

const USER: MessageSource = Object.freeze({ kind: 'user' })

const decisionOptionsSchema = z.strictObject({
  reason: z.optional(z.string()),
  source: z.optional(messageSourceSchema),
})
const cancelToolCallSchema = z.strictObject({ reason: z.optional(z.string()) })

const checkCallId = (check: InputCheck, callId: unknown, expected: string): void => {
  if (typeof callId !== 'string' || callId === '') check.add(['callId'], `expected ${expected}`)
}

/** `approve(callId, {reason?, source?})` or `deny(…)`: a non-empty id and known options, or it throws. */
export const parseDecision = (
  call: string,
  callId: unknown,
  options: unknown,
): { readonly callId: string; readonly reason: string | undefined; readonly source: MessageSource } =>
  checkInput(call, (check) => {
    checkCallId(check, callId, 'the id of a pending tool call (see agent.approvals)')
    const parsed = options === undefined ? {} : check.parse(decisionOptionsSchema, options, ['options'])
    return { callId: callId as string, reason: parsed?.reason, source: parsed?.source ?? USER }
  })

/** `cancelToolCall(callId, {reason?})` (R71): a non-empty id and known options, or it throws. */
export const parseCancelToolCall = (callId: unknown, options: unknown): { readonly reason?: string } =>
  checkInput('cancelToolCall()', (check) => {
    checkCallId(check, callId, 'the id of a running tool call (agent/tool/start names it)')
    const reason =
      options === undefined ? undefined : check.parse(cancelToolCallSchema, options, ['options'])?.reason
    return reason === undefined ? {} : { reason }
  })
