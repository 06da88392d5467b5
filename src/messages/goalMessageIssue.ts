import type { InputIssue } from '../contracts/errors.js'
import type { ContentBlock, MessageSource } from '../contracts/messages.js'
import { GOAL_STATE_OPEN } from './goalRender.js'
import { readGoalMessage } from './readGoalMessage.js'

const RESERVED =
  `text that starts with ${GOAL_STATE_OPEN} is goal state, which only a round-0 {kind: 'goal'} source ` +
  'may carry (createGoalController writes it); start the text with something else'
const ROUND_ZERO =
  'a round-0 goal message is a goal change: source.change is the new state and the content is exactly ' +
  'one text block, renderGoalChange(change); createGoalController writes these'
const NO_CHANGE_AFTER_ZERO =
  'a continuation round (round > 0) carries no change; remove source.change, or send the change at round 0'

/** Whether `text` claims to be goal state (R33): cheap enough for every string send. */
export const isGoalStateText = (text: string): boolean => text.startsWith(GOAL_STATE_OPEN)

/** The issue for text given as a string (the shorthand) that claims to be goal state, at `path`. */
export const goalStateTextIssue = (path: readonly (string | number)[]): InputIssue => ({
  path,
  message: `mismatched source attribution: ${RESERVED}`,
})

/**
 * Why a message is refused where it is accepted (`send()` and its presets, contexts): what
 * `decodeGoalEvent` would throw on (R33), decided from the message alone, so every message a send
 * accepts decodes. One point is stricter than decoding: a continuation round (round > 0) must
 * not carry a `change` (R32), which decoding would silently ignore. What needs the transcript (a
 * positive round that is not the next round, R34) is left to the fold.
 *
 * @returns an issue whose path is inside `{content, source}` (prefix it with the argument's), or
 *   `undefined` when the message is fine.
 */
export const goalMessageIssue = (
  content: readonly ContentBlock[],
  source: MessageSource,
): InputIssue | undefined => {
  const reading = readGoalMessage(content, source)
  if (!reading.ok) {
    const roundZero = reading.path[0] === 'content' || reading.path[1] === 'change'
    const hint = source.kind !== 'goal' ? RESERVED : roundZero ? ROUND_ZERO : undefined
    return { path: reading.path, message: hint ? `${reading.problem}; ${hint}` : reading.problem }
  }
  const goal = source as { kind: string; round?: unknown; change?: unknown }
  if (goal.kind === 'goal' && typeof goal.round === 'number' && goal.round > 0 && goal.change !== undefined)
    return { path: ['source', 'change'], message: NO_CHANGE_AFTER_ZERO }
  return undefined
}
