import {
  catchError,
  concatMap,
  defaultIfEmpty,
  forkJoin,
  from,
  map,
  type Observable,
  of,
  type SchedulerLike,
  TimeoutError,
  take,
  timeout,
} from 'rxjs'
import type { ToolCallBlock } from '../contracts/messages.js'
import type { ApprovalContext, ToolDefinition } from '../contracts/tools.js'
import type { Signal } from '../machine/inputs.js'
import { type Checked, checkArguments } from '../tools/checkArguments.js'
import type { ToolCatalog } from '../tools/toolCatalog.js'
import { callHook } from './callHook.js'
import type { ToolBatch } from './toolBatch.js'

/** One call's answer: whether it needs approval, and what its predicate threw, if it did. */
type Need = { readonly needs: boolean; readonly failure?: unknown }

/**
 * Which calls of a step wait for a person (R61, R66). `check` is `undefined` for a batch none of
 * whose tools declares `needsApproval`: that batch runs at once, with no extra hop.
 */
export type ApprovalGate<A> = {
  check(batch: ToolBatch<A>): Observable<Signal> | undefined
  /** The limit a pending call of this tool waits under: the tool's own, else the agent's. */
  timeoutOf(name: string): number | undefined
}

export const createApprovalGate = <A>(
  toolbox: ToolCatalog<A>,
  agentTimeoutMs: number | undefined,
  scheduler: SchedulerLike,
): ApprovalGate<A> => {
  const timeoutOf = (name: string) => toolbox.stepList.gated.get(name)?.approvalTimeoutMs ?? agentTimeoutMs
  return {
    timeoutOf,
    check: (batch) => {
      const byName = batch.list.gated
      if (byName.size === 0 || !batch.calls.some((call) => byName.has(call.name))) return undefined
      const needs = batch.calls.map((call) =>
        needOf(batch, call, byName.get(call.name), timeoutOf, scheduler),
      )
      return forkJoin(needs).pipe(
        map(
          (answers): Signal => ({
            type: 'approvals/checked',
            activity: batch.activity,
            step: batch.step,
            needs: answers.map((a) => a.needs),
            failures: answers.flatMap((a) => (a.failure === undefined ? [] : [a.failure])),
          }),
        ),
      )
    },
  }
}

const NO: Need = Object.freeze({ needs: false })
const YES: Need = Object.freeze({ needs: true })

/**
 * Arguments are validated first (R21b): a call whose arguments are invalid never runs, so it needs
 * no approval. Only `false` lets a call run unasked; a predicate that throws, rejects, or does not
 * answer within the approval limit counts as `true`, and what it threw is reported.
 */
const needOf = <A>(
  batch: ToolBatch<A>,
  call: ToolCallBlock,
  tool: ToolDefinition<A> | undefined,
  timeoutOf: (name: string) => number | undefined,
  scheduler: SchedulerLike,
): Observable<Need> => {
  if (tool === undefined) return of(NO)
  const checked = checkArguments(call, tool)
  const decide = (c: Checked): Observable<Need> => {
    if (!c.ok) return of(NO)
    const rule = tool.needsApproval
    if (typeof rule !== 'function') return of(rule === true ? YES : NO)
    const ctx: ApprovalContext<A> = {
      agent: batch.agent,
      turn: batch.turn,
      step: batch.step,
      callId: call.id,
    }
    const limit = timeoutOf(tool.name)
    const answer = callHook<unknown>(() => rule(c.args, ctx)).pipe(
      take(1),
      defaultIfEmpty(true),
      map((value): Need => (value === false ? NO : YES)),
    )
    const bounded = limit === undefined ? answer : answer.pipe(timeout({ first: limit, scheduler }))
    return bounded.pipe(
      catchError((error: unknown) => {
        const failure =
          error instanceof TimeoutError
            ? new Error(
                `needsApproval of "${tool.name}" did not answer within ${limit} ms; the call waits for approval`,
              )
            : error
        return of<Need>({ needs: true, failure })
      }),
    )
  }
  return isPromiseLike(checked) ? from(checked).pipe(concatMap(decide)) : decide(checked)
}

const isPromiseLike = (value: unknown): value is PromiseLike<Checked> =>
  typeof (value as { then?: unknown } | null)?.then === 'function'
