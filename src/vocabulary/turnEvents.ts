/** The durable events of a turn and its steps, and of what enters it (docs/contract.md, section 4). */
import * as z from 'zod/mini'
import { messageSourceSchema } from '../messages/schemas.js'
import { durable } from './durable.js'
import { content, flag, messageContent, messageId, position, usage } from './leaves.js'

/** What opened a turn. `id`: the prompt's id (logs written before it existed lack it). */
export const turnTrigger = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('message'), source: messageSourceSchema, id: z.optional(messageId) }),
  z.strictObject({ kind: z.literal('retry') }),
])

/** How a turn ended. */
export const turnEndReason = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('completed') }),
  z.strictObject({ kind: z.literal('max-tokens') }),
  z.strictObject({ kind: z.literal('aborted') }),
  z.strictObject({ kind: z.literal('disposed') }),
  z.strictObject({ kind: z.literal('error'), step: z.int().check(z.minimum(0)), message: z.string() }),
  /** A budget with `onExceed: 'stop'` was passed (R80). */
  z.strictObject({ kind: z.literal('budget') }),
  /** The turn took the `maxSteps` its followup allowed (R81). */
  z.strictObject({ kind: z.literal('max-steps') }),
])

export const turnEvents = [
  durable('user/message', {
    content: messageContent,
    source: messageSourceSchema,
    id: z.optional(messageId),
  }),
  durable('steering/message', {
    turn: position,
    content: messageContent,
    source: messageSourceSchema,
    id: messageId,
    /** This steer cut the step it was drained into (R68): `steer(x, {interrupt: true})`. */
    interrupt: flag,
  }),
  durable('turn/start', { turn: position, trigger: turnTrigger }),
  durable('turn/end', { turn: position, reason: turnEndReason }),
  durable('step/start', { turn: position, step: position }),
  /**
   * `interrupted`: an interrupting steer cut the step's model request (R68). `usage`: the usage of
   * a request that wrote no `assistant/message` (cut before any text, cancelled, failed; R73).
   */
  durable('step/end', { turn: position, step: position, interrupted: flag, usage: z.optional(usage) }),
  /** `interrupted`: the text and reasoning streamed before a steer cut the request (R68). */
  durable('assistant/message', {
    turn: position,
    step: position,
    content,
    usage: z.optional(usage),
    interrupted: flag,
  }),
] as const
