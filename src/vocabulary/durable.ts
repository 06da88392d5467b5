import * as z from 'zod/mini'
import { position } from './leaves.js'

/**
 * One durable event of the vocabulary: `{seq, type, data}` with `data` of exactly these keys.
 * Unknown keys are refused at every level (R37): a log is read back as it was written.
 */
export const durable = <T extends string, S extends z.core.$ZodLooseShape>(type: T, data: S) =>
  z.strictObject({ seq: position, type: z.literal(type), data: z.strictObject(data) })
