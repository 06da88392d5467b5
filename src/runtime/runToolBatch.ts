import {
  catchError,
  concat,
  concatMap,
  defaultIfEmpty,
  defer,
  EMPTY,
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
import { errorText } from '../messages/errorText.js'
import { parseContextInput } from '../messages/validate.js'
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

type Parsed =
  | { readonly ok: true; readonly args: unknown }
  | { readonly ok: false; readonly result: ToolResultBlock }

/** R21b: arguments must be JSON and match the tool's zod schema; the model is told what was wrong. */
const parseArguments = (call: ToolCallBlock, tool: NonNullable<Item['tool']>): Parsed => {
  let raw: unknown
  try {
    raw = JSON.parse(call.arguments)
  } catch (error) {
    const text = `Arguments are not valid JSON: ${errorText(error)}`
    return { ok: false, result: errorResult(call.id, 'INVALID_ARGUMENTS', text) }
  }
  let parsed: ReturnType<NonNullable<Item['tool']>['parameters']['safeParse']>
  try {
    parsed = tool.parameters.safeParse(raw)
  } catch (error) {
    // A refinement or transform of the tool's own schema threw (`new URL('x')`, say): the
    // arguments could not be checked, which the model can still fix.
    const text = `Checking the arguments of "${tool.name}" failed: ${errorText(error)}`
    return { ok: false, result: errorResult(call.id, 'INVALID_ARGUMENTS', text) }
  }
  if (parsed.success) return { ok: true, args: parsed.data }
  const issues = parsed.error.issues.map(
    (i) => `${i.path.length ? i.path.map(String).join('.') : '(root)'}: ${errorText(i.message)}`,
  )
  const text = `Arguments do not match the parameters of "${tool.name}": ${issues.join('; ')}`
  return { ok: false, result: errorResult(call.id, 'INVALID_ARGUMENTS', text) }
}

export type ToolRunnerOptions<A> = {
  readonly tools: readonly ToolDefinition<A>[]
  readonly maxParallel: number
  /** Posts a signal into the agent's pipeline (for `ctx.context`, which may come at any time). */
  readonly post: (signal: Signal) => void
}

/**
 * The batch runner (R15, R21, R25): calls run in model order; consecutive parallel-safe calls run
 * concurrently up to `maxParallel`. Each call posts `tool/started` when dispatched, then its
 * outcome; the reducer records outcomes in model order. A call is never dispatched after the
 * turn's signal aborted: the unwind records it as `ABORTED_BEFORE_DISPATCH`.
 */
export const createToolBatchRunner = <A>(options: ToolRunnerOptions<A>): ToolBatchRunner<A> => {
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]))
  return (batch) => {
    const items = batch.calls.map((call, index): Item => ({ index, call, tool: byName.get(call.name) }))
    return from(groupCalls(items)).pipe(
      concatMap((group) =>
        from(group).pipe(mergeMap((item) => runCall(batch, item, options.post), options.maxParallel)),
      ),
    )
  }
}

const runCall = <A>(batch: ToolBatch<A>, item: Item, post: (signal: Signal) => void): Observable<Signal> =>
  defer(() => {
    if (batch.signal.aborted) return EMPTY
    const { activity, step } = batch
    const { index, call, tool } = item
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
    const parsed = parseArguments(call, tool)
    if (!parsed.ok) return of(started, outcome(parsed.result))
    let concluded = false
    const toolSource: MessageSource = { kind: 'tool', tool: tool.name }
    const ctx: ToolContext<A> = {
      agent: batch.agent,
      turn: batch.turn,
      step,
      signal: batch.signal,
      context: (input: SendInput) =>
        post({ type: 'tool/context', data: parseContextInput(input, toolSource, 'ctx.context()') }),
      concludeTurn: () => {
        concluded = true
      },
    }
    const run = callHook<unknown>(() => (tool as ToolDefinition<A>).execute(parsed.args, ctx)).pipe(
      take(1),
      defaultIfEmpty(undefined),
      map((value) => outcome(toResultBlock(call.id, value), concluded)),
      // An error after the abort (as fetch's AbortError) is no delivered value: ABORTED (R25).
      catchError((error: unknown) =>
        batch.signal.aborted ? EMPTY : of(outcome(thrownResult(call.id, error), concluded)),
      ),
    )
    return concat(of(started), run)
  })
