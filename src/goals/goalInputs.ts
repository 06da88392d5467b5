import { z } from 'zod'
import { InvalidInputError } from '../contracts/errors.js'
import { toInputIssues } from '../messages/toInputIssues.js'

const maxRounds = z.int().min(1).nullable()
export const createInputSchema = z.strictObject({
  objective: z.string().min(1),
  maxRounds: maxRounds.optional(),
})
export const editInputSchema = z.strictObject({
  objective: z.string().min(1).optional(),
  maxRounds: maxRounds.optional(),
})
export const blockInputSchema = z.strictObject({ code: z.string().min(1), message: z.string() })
const revisionSchema = z.int().min(1).optional()

/** Parses a controller argument or throws `InvalidInputError` naming the call and path. */
export const parseGoalInput = <T>(schema: z.ZodType<T>, value: unknown, call: string, root = 'input'): T => {
  const result = schema.safeParse(value)
  if (!result.success) throw new InvalidInputError(call, toInputIssues(result.error, [root], value, schema))
  return result.data
}

export const parseRevision = (value: unknown): number | undefined =>
  parseGoalInput(revisionSchema, value, 'edit()', 'expectedRevision')

const callback = z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', {
  message: 'expected a function',
})
/**
 * `createGoalController`'s options, checked when it is created: a bad `defaultMaxRounds` would
 * otherwise surface only at `create()`, as a goal change the agent refuses.
 */
export const controllerOptionsSchema = z
  .strictObject({
    defaultMaxRounds: maxRounds.optional(),
    continuation: callback.optional(),
    onError: callback.optional(),
  })
  .optional()
