import type { ToolResultBlock } from '../contracts/messages.js'
import type { Turn } from './activity.js'
import type { Reduction } from './reduction.js'

/** Call `index` has its result, recorded or buffered. */
export const settled = (turn: Turn, index: number): boolean =>
  index < turn.toolResults || turn.outcomes?.[index] !== undefined

/** R72: the call's result is known; published once per call, before its durable pair. */
export const toolEnded = (r: Reduction, turn: Turn, index: number, result: ToolResultBlock): void => {
  const { agentId } = r.state
  const at = { agentId, turn: turn.turn, step: turn.step, callId: result.toolCallId, index }
  const isError = result.isError === true
  r.live(
    result.code === undefined
      ? { type: 'agent/tool/end', ...at, isError }
      : { type: 'agent/tool/end', ...at, isError, code: result.code },
  )
}
