import { z } from 'zod'
import type { SessionEventOf } from '../events.js'
import { GoalEventError } from './errors.js'
import { GOAL_STATE_OPEN, renderGoalChange } from './render.js'
import type { GoalChange } from './types.js'

const goalSourceSchema = z.object({
  kind: z.literal('goal'),
  goalId: z.string().min(1),
  revision: z.int().min(0),
  round: z.int().min(0),
  change: z.unknown().optional(),
})

const goalStateSchema = z.strictObject({
  goalId: z.string().min(1),
  revision: z.int().min(1),
  objective: z.string(),
  phase: z.enum(['active', 'paused', 'blocked', 'complete']),
  maxRounds: z.int().min(1).nullable(),
  blocked: z.strictObject({ code: z.string(), message: z.string() }).optional(),
})
const tombstoneSchema = z.strictObject({
  goalId: z.string().min(1),
  revision: z.int().min(1),
  cleared: z.literal(true),
})
export const goalChangeSchema = z.union([goalStateSchema, tombstoneSchema])

/** The text of the first *text* block (other blocks before it are skipped). */
const firstText = (event: SessionEventOf<'user/message'>): string | undefined => {
  for (const block of event.data.content) if (block.type === 'text') return block.text
  return undefined
}

const describe = (error: z.ZodError): string => {
  const issue = error.issues[0]
  return `${issue?.path.length ? `${issue.path.join('.')}: ` : ''}${issue?.message ?? 'invalid'}`
}

/**
 * Decodes a goal change from a `user/message` (R33):
 *
 * 1. A non-goal source: `undefined`, unless the first text block starts with `<goal_state>`
 *    (throws: mismatched source attribution).
 * 2. A goal source with malformed fields: throws (invalid source).
 * 3. Round > 0 (a continuation prompt): `undefined`.
 * 4. Round 0: throws when `change` is missing or malformed, names another goal id or revision
 *    than the source, or when the content is not exactly its canonical rendering; otherwise
 *    returns the change.
 *
 * Every error is a `GoalEventError` naming the event's `seq`.
 */
export const decodeGoalEvent = (event: SessionEventOf<'user/message'>): GoalChange | undefined => {
  const fail = (detail: string): never => {
    throw new GoalEventError(event.seq, detail)
  }
  if (event.type !== 'user/message') fail(`expected a user/message event, got ${String(event.type)}`)
  const { source } = event.data
  if (source.kind !== 'goal') {
    if (firstText(event)?.startsWith(GOAL_STATE_OPEN)) {
      fail(`mismatched source attribution: ${GOAL_STATE_OPEN} content from a "${source.kind}" source`)
    }
    return undefined
  }
  const parsed = goalSourceSchema.safeParse(source)
  if (!parsed.success) return fail(`invalid goal source: ${describe(parsed.error)}`)
  const { goalId, revision, round, change } = parsed.data
  if (round > 0) return undefined
  if (change === undefined) return fail('round-0 goal message without a change')
  const decoded = goalChangeSchema.safeParse(change)
  if (!decoded.success) return fail(`malformed goal change: ${describe(decoded.error)}`)
  const value = decoded.data as GoalChange
  if (value.goalId !== goalId) fail(`the change names goal ${value.goalId}, the source goal ${goalId}`)
  if (value.revision !== revision)
    fail(`the change is revision ${value.revision}, the source revision ${revision}`)
  const content = event.data.content
  if (content.length !== 1 || firstText(event) !== renderGoalChange(value)) {
    fail('the content is not the canonical rendering of the change')
  }
  return value
}
