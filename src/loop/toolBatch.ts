import { from, type Observable } from 'rxjs'
import type { ToolCallBlock, ToolResultBlock } from '../messages/types.js'
import type { Signal } from './inputs.js'

export type ToolBatch<A> = {
  readonly agent: A
  readonly activity: number
  readonly turn: number
  readonly step: number
  readonly calls: readonly ToolCallBlock[]
  readonly signal: AbortSignal
}

/**
 * Runs one step's tool calls and emits one `tool/result` signal per call, in model order. The
 * reducer records each call with its result, so context staged meanwhile enters after the batch.
 */
export type ToolBatchRunner<A> = (batch: ToolBatch<A>) => Observable<Signal>

const unknownTool = (call: ToolCallBlock): ToolResultBlock => ({
  type: 'tool-result',
  toolCallId: call.id,
  content: [{ type: 'text', text: `Unknown tool "${call.name}": this agent has no tool of that name.` }],
  isError: true,
  code: 'UNKNOWN_TOOL',
})

/** The batch runner of an agent without tools: every call names an unknown tool (R21b). */
export const noTools = <A>(batch: ToolBatch<A>): Observable<Signal> =>
  from(
    batch.calls.map(
      (call, index): Signal => ({
        type: 'tool/result',
        activity: batch.activity,
        step: batch.step,
        index,
        result: unknownTool(call),
        concluded: false,
      }),
    ),
  )
