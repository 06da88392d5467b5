import * as z from 'zod/mini'
import type { GoalChange } from '../contracts/goals.js'
import type { ContentBlock, MessageSource } from '../contracts/messages.js'
import { GOAL_STATE_OPEN, renderGoalChange } from './goalRender.js'
import { safeParse } from './safeParse.js'

const goalSourceSchema = z.object({
  kind: z.literal('goal'),
  goalId: z.string().check(z.minLength(1)),
  revision: z.int().check(z.gte(0)),
  round: z.int().check(z.gte(0)),
  change: z.optional(z.unknown()),
})

const goalStateSchema = z.strictObject({
  goalId: z.string().check(z.minLength(1)),
  revision: z.int().check(z.gte(1)),
  objective: z.string(),
  phase: z.enum(['active', 'paused', 'blocked', 'complete']),
  maxRounds: z.nullable(z.int().check(z.gte(1))),
  blocked: z.optional(z.strictObject({ code: z.string(), message: z.string() })),
})
const tombstoneSchema = z.strictObject({
  goalId: z.string().check(z.minLength(1)),
  revision: z.int().check(z.gte(1)),
  cleared: z.literal(true),
})
export const goalChangeUnion = z.union([goalStateSchema, tombstoneSchema])
/**
 * A goal change, as a round-0 goal message carries it. Published as a schema of `GoalChange`, so
 * its declared type names none of zod's internal types (they differ between zod releases); the
 * cast only renames the output, and test/types/vocabulary.test.ts pins the two as one.
 */
export const goalChangeSchema = goalChangeUnion as unknown as z.ZodMiniType<GoalChange>

/** Where a message breaks R33, inside its `{content, source}`, and what is wrong. */
export type GoalMessageProblem = {
  readonly path: readonly (string | number)[]
  readonly problem: string
}

/** What a message says about goals (R33): its change (or none), or why it is not a goal message. */
export type GoalMessageReading =
  | { readonly ok: true; readonly change: GoalChange | undefined }
  | ({ readonly ok: false } & GoalMessageProblem)

/** The index of the first *text* block (other blocks before it are skipped), or -1. */
export const firstTextIndex = (content: readonly ContentBlock[]): number =>
  content.findIndex((block) => block.type === 'text')

const describe = (error: z.core.$ZodError): { path: PropertyKey[]; text: string } => {
  const issue = error.issues[0]
  const path = issue?.path ?? []
  return { path, text: `${path.length ? `${path.join('.')}: ` : ''}${issue?.message ?? 'invalid'}` }
}

const keys = (path: readonly PropertyKey[]): (string | number)[] =>
  path.map((key) => (typeof key === 'number' ? key : String(key)))

/**
 * R33 on a message's data alone, with no event around it: `decodeGoalEvent` throws what this
 * finds (naming the `seq`), and `send()` refuses it, so that every goal message a send accepts
 * also decodes.
 *
 * 1. A non-goal source: no change, unless the first text block starts with `<goal_state>`
 *    (mismatched source attribution).
 * 2. A goal source with malformed fields: invalid source.
 * 3. Round > 0 (a continuation prompt): no change.
 * 4. Round 0: the change, unless it is missing or malformed, names another goal id or revision
 *    than the source, or the content is not exactly its canonical rendering.
 */
export const readGoalMessage = (
  content: readonly ContentBlock[],
  source: MessageSource,
): GoalMessageReading => {
  const fail = (path: readonly (string | number)[], problem: string) =>
    ({ ok: false, path, problem }) as const
  if (source.kind !== 'goal') {
    const at = firstTextIndex(content)
    const block = content[at]
    if (block?.type === 'text' && block.text.startsWith(GOAL_STATE_OPEN)) {
      return fail(
        ['content', at, 'text'],
        `mismatched source attribution: ${GOAL_STATE_OPEN} content from a "${source.kind}" source`,
      )
    }
    return { ok: true, change: undefined }
  }
  const parsed = safeParse(goalSourceSchema, source)
  if (!parsed.success) {
    const { path, text } = describe(parsed.error)
    return fail(['source', ...keys(path)], `invalid goal source: ${text}`)
  }
  const { goalId, revision, round, change } = parsed.data
  if (round > 0) return { ok: true, change: undefined }
  if (change === undefined) return fail(['source', 'change'], 'round-0 goal message without a change')
  const decoded = safeParse(goalChangeSchema, change)
  if (!decoded.success) {
    const { path, text } = describe(decoded.error)
    return fail(['source', 'change', ...keys(path)], `malformed goal change: ${text}`)
  }
  const value = decoded.data as GoalChange
  if (value.goalId !== goalId)
    return fail(
      ['source', 'change', 'goalId'],
      `the change names goal ${value.goalId}, the source goal ${goalId}`,
    )
  if (value.revision !== revision) {
    return fail(
      ['source', 'change', 'revision'],
      `the change is revision ${value.revision}, the source revision ${revision}`,
    )
  }
  const only = content.length === 1 ? content[0] : undefined
  if (only?.type !== 'text' || only.text !== renderGoalChange(value))
    return fail(['content'], 'the content is not the canonical rendering of the change')
  return { ok: true, change: value }
}
