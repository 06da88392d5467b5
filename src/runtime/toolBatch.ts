import type { Observable } from 'rxjs'
import type { ToolCallBlock } from '../contracts/messages.js'
import type { Signal } from '../machine/inputs.js'

export type ToolBatch<A> = {
  readonly agent: A
  readonly activity: number
  readonly turn: number
  readonly step: number
  readonly calls: readonly ToolCallBlock[]
  /** Only these calls (indices into `calls`) run: their approval is known (R61). */
  readonly only?: readonly number[] | undefined
  readonly signal: AbortSignal
}

/**
 * Runs one step's tool calls and emits one `tool/result` signal per call, in model order. The
 * reducer records each call with its result, so context staged meanwhile enters after the batch.
 */
export type ToolBatchRunner<A> = (batch: ToolBatch<A>) => Observable<Signal>
