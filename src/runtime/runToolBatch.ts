import {
  catchError,
  concat,
  concatMap,
  defaultIfEmpty,
  defer,
  EMPTY,
  finalize,
  from,
  map,
  mergeMap,
  type Observable,
  of,
  take,
} from 'rxjs'
import type { MessageSource, SendInput, ToolCallBlock, ToolResultBlock } from '../contracts/messages.js'
import type { ToolContext, ToolDefinition } from '../contracts/tools.js'
import type { Signal } from '../machine/inputs.js'
import { parseContextInput } from '../messages/parseContextInput.js'
import { type Checked, checkArguments } from '../tools/checkArguments.js'
import { errorResult, thrownResult, toResultBlock } from '../tools/toolResult.js'
import { callHook } from './callHook.js'
import type { ToolBatch, ToolBatchRunner } from './toolBatch.js'

type Item = {
  readonly index: number
  readonly call: ToolCallBlock
  // biome-ignore lint/suspicious/noExplicitAny: the agent type does not matter for grouping and parsing
  readonly tool: ToolDefinition<any> | undefined
}

/** Consecutive parallel-safe calls form one group; every other call is a group of its own. */
const groupCalls = (items: readonly Item[]): Item[][] => {
  const groups: Item[][] = []
  for (const item of items) {
    const last = groups[groups.length - 1]
    const parallel = item.tool?.parallel === true
    if (parallel && last?.[0]?.tool?.parallel === true) last.push(item)
    else groups.push([item])
  }
  return groups
}

export type ToolRunnerOptions = {
  readonly maxParallel: number
  /** The agent's `maxBlockBytes` (R86), for `ctx.context` and the results. */
  readonly maxBlockBytes: number
  /** Posts a signal into the agent's pipeline (for `ctx.context`, which may come at any time). */
  readonly post: (signal: Signal) => void
}

/**
 * The batch runner (R15, R21, R25): calls run in model order; consecutive parallel-safe calls run
 * concurrently up to `maxParallel`. Each call posts `tool/started` when dispatched, then its
 * outcome; the reducer records outcomes in model order. A call is never dispatched after the
 * turn's signal aborted: the unwind records it as `ABORTED_BEFORE_DISPATCH`.
 */
export const createToolBatchRunner = <A>(options: ToolRunnerOptions): ToolBatchRunner<A> => {
  return (batch) => {
    const byName = batch.list.byName
    const only = batch.only
    const items =
      only === undefined
        ? batch.calls.map((call, index): Item => ({ index, call, tool: byName.get(call.name) }))
        : only.flatMap((index): Item[] => {
            const call = batch.calls[index]
            return call ? [{ index, call, tool: byName.get(call.name) }] : []
          })
    return from(groupCalls(items)).pipe(
      concatMap((group) =>
        from(group).pipe(mergeMap((item) => runCall(batch, item, options), options.maxParallel)),
      ),
    )
  }
}

const runCall = <A>(batch: ToolBatch<A>, item: Item, options: ToolRunnerOptions): Observable<Signal> =>
  defer(() => {
    const { activity, step } = batch
    const { index, call, tool } = item
    // A call cancelled on its own before its turn came (R71) has its result already.
    if (batch.signal.aborted || batch.parts.cancelled(index)) return EMPTY
    const outcome = (result: ToolResultBlock, concluded = false): Signal => ({
      type: 'tool/result',
      activity,
      step,
      index,
      result,
      concluded,
    })
    const started: Signal = { type: 'tool/started', activity, step, index }
    if (!tool) {
      const text = `Unknown tool "${call.name}": this agent has no tool of that name.`
      return of(started, outcome(errorResult(call.id, 'UNKNOWN_TOOL', text)))
    }
    const checked = checkArguments(call, tool)
    const run = (c: Checked): Observable<Signal> =>
      c.ok ? execute(batch, item, tool as ToolDefinition<A>, c.args, outcome, options) : of(outcome(c.result))
    // Cancelled on its own, the call's run ends at once: a tool that ignores its signal holds
    // neither its group nor the batch (R71).
    if (!isObservableLike(checked)) return concat(of(started), batch.parts.until(index, run(checked)))
    return concat(of(started), batch.parts.until(index, from(checked).pipe(concatMap(run))))
  })

/** Runs `execute` with its context; its first value (or none) is the outcome (R21b, R25). */
const execute = <A>(
  batch: ToolBatch<A>,
  { index, call }: Item,
  tool: ToolDefinition<A>,
  args: unknown,
  outcome: (result: ToolResultBlock, concluded?: boolean) => Signal,
  { post, maxBlockBytes }: ToolRunnerOptions,
): Observable<Signal> =>
  defer(() => {
    const { step } = batch
    let concluded = false
    const toolSource: MessageSource = { kind: 'tool', tool: tool.name }
    let settled = false
    // Made when read: most tools never look at their signal or the steers.
    const ctx: ToolContext<A> = {
      agent: batch.agent,
      turn: batch.turn,
      step,
      callId: call.id,
      get signal() {
        return batch.parts.signal(index)
      },
      get steering$() {
        return defer(() => (settled ? EMPTY : batch.steers(index)))
      },
      context: (input: SendInput) =>
        post({
          type: 'tool/context',
          data: parseContextInput(input, toolSource, 'ctx.context()', 'input', maxBlockBytes),
        }),
      concludeTurn: () => {
        concluded = true
      },
    }
    return callHook<unknown>(() => tool.execute(args, ctx)).pipe(
      take(1),
      defaultIfEmpty(undefined),
      map((value) => outcome(toResultBlock(call.id, value, maxBlockBytes), concluded)),
      // An error after the abort (as fetch's AbortError) is no delivered value: ABORTED (R25),
      // or the CANCELLED result the call already has (R71).
      catchError((error: unknown) =>
        batch.signal.aborted || batch.parts.cancelled(index)
          ? EMPTY
          : of(outcome(thrownResult(call.id, error), concluded)),
      ),
      finalize(() => {
        settled = true
      }),
    )
  })

const isObservableLike = (value: unknown): value is PromiseLike<Checked> =>
  typeof (value as { then?: unknown } | null)?.then === 'function'
