import * as z from 'zod/mini'
import { InvalidInputError } from '../contracts/errors.js'
import { safeParse } from '../messages/safeParse.js'
import { toInputIssues } from '../messages/toInputIssues.js'

const maxRounds = z.optional(z.nullable(z.int().check(z.gte(1))))
const objective = z.string().check(z.minLength(1))
export const createInputSchema = z.strictObject({ objective, maxRounds })
export const editInputSchema = z.strictObject({ objective: z.optional(objective), maxRounds })
export const blockInputSchema = z.strictObject({
  code: z.string().check(z.minLength(1)),
  message: z.string(),
})
const revisionSchema = z.optional(z.int().check(z.gte(1)))

/** Parses a controller argument or throws `InvalidInputError` naming the call and path. */
export const parseGoalInput = <T>(
  schema: z.core.$ZodType<T>,
  value: unknown,
  call: string,
  root = 'input',
): T => {
  const result = safeParse(schema, value)
  if (!result.success) throw new InvalidInputError(call, toInputIssues(result.error, [root], value, schema))
  return result.data
}

export const parseRevision = (value: unknown): number | undefined =>
  parseGoalInput(revisionSchema, value, 'edit()', 'expectedRevision')

const callback = z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', {
  error: 'expected a function',
})
/**
 * `createGoalController`'s options, checked when it is created: a bad `defaultMaxRounds` would
 * otherwise surface only at `create()`, as a goal change the agent refuses.
 */
export const controllerOptionsSchema = z.optional(
  z.strictObject({
    defaultMaxRounds: maxRounds,
    continuation: z.optional(callback),
    onError: z.optional(callback),
  }),
)
