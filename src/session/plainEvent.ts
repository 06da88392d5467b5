/**
 * The fast structural check of one durable event, made from the vocabulary's schema
 * (`vocabulary/plainCheck.ts`): it answers `true` only for a value `sessionEventSchema` accepts,
 * and `false` for anything it cannot vouch for, which the caller then asks the schema about. So
 * a log opens with the same verdicts and the same messages as with the schema alone, several
 * times faster (docs/performance.md).
 */
import { plainCheck } from '../vocabulary/plainCheck.js'
import { sessionEventSchema } from '../vocabulary/sessionEvents.js'

const check = plainCheck(sessionEventSchema)

/**
 * Whether `value` is, for sure, an event the schema accepts (its `seq` order aside). `false`
 * means "ask the schema", never "invalid". Whatever reading the value throws is a `false` too.
 */
export const isPlainEvent = (value: unknown): boolean => {
  try {
    return check(value)
  } catch {
    return false
  }
}
