import type { SessionEventOf } from '../contracts/events.js'
import type { GoalChange } from '../contracts/goals.js'
import { readGoalMessage } from '../messages/readGoalMessage.js'
import { GoalEventError } from './errors.js'

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
  if (event.type !== 'user/message')
    throw new GoalEventError(event.seq, `expected a user/message event, got ${String(event.type)}`)
  const reading = readGoalMessage(event.data.content, event.data.source)
  if (!reading.ok) throw new GoalEventError(event.seq, reading.problem)
  return reading.change
}
