import type { Observable } from 'rxjs'
import type { AgentMessage, ToolCallBlock } from '../contracts/messages.js'
import type { Signal } from '../machine/inputs.js'
import type { ToolList } from '../tools/toolCatalog.js'

export type ToolBatch<A> = {
  readonly agent: A
  readonly activity: number
  readonly turn: number
  readonly step: number
  readonly calls: readonly ToolCallBlock[]
  /** Only these calls (indices into `calls`) run: their approval is known (R61). */
  readonly only?: readonly number[] | undefined
  readonly signal: AbortSignal
  /** Each call's own signal and stop (R71): cancelling one call leaves the others running. */
  readonly parts: CallParts
  /** The steers applied from now until the step's call at `index` settles (R70). */
  readonly steers: (index: number) => Observable<AgentMessage>
  /** The tool list the step saw (R100): its calls are looked up in it. */
  readonly list: ToolList<A>
}

/** What the runner needs to run one call on its own: see `Activities` parts. */
export type CallParts = {
  /** The call's signal: aborts with the turn's, or when this call alone is cancelled. */
  signal(index: number): AbortSignal
  /** The call was cancelled before it was dispatched: it never starts. */
  cancelled(index: number): boolean
  /** Ends the call's run when it is cancelled, whatever its tool does after. */
  until<T>(index: number, run: Observable<T>): Observable<T>
}

/**
 * Runs one step's tool calls and emits one `tool/result` signal per call, in model order. The
 * reducer records each call with its result, so context staged meanwhile enters after the batch.
 */
export type ToolBatchRunner<A> = (batch: ToolBatch<A>) => Observable<Signal>
