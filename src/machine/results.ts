import type { ToolResultBlock } from '../contracts/messages.js'
import { errorResult } from '../messages/errorResult.js'

export { errorResult }

/** The `CANCELLED` result (R71), as the model reads it: whether the call ran, and why it stopped. */
export const cancelledResult = (
  toolCallId: string,
  reason: string | undefined,
  waited: boolean,
): ToolResultBlock => {
  const what = waited ? 'Cancelled while waiting for approval; it never ran.' : 'Cancelled by the user.'
  return errorResult(toolCallId, 'CANCELLED', reason ? `${what} Reason: ${reason}` : what)
}

/** Why a call of a step that ends the turn never ran (R18, R80, R81), as the model reads it. */
export const NOT_RUN_TEXT = {
  NOT_RUN_MAX_TOKENS: 'Not run: the answer was cut off at the token limit.',
  NOT_RUN_BUDGET: 'Not run: the budget of this agent was used up.',
  NOT_RUN_MAX_STEPS: 'Not run: the turn took the most steps its prompt allowed.',
} as const
