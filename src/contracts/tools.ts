import type { Observable, ObservableInput } from 'rxjs'
import type { Agent } from './agent.js'
import type { AgentMessage, ContentBlock, SendInput } from './messages.js'
import type { StandardSchemaV1 } from './standardSchema.js'

/** What a tool's `execute` may hand back as its result. */
export type ToolResult = { readonly content: readonly ContentBlock[] | string; readonly isError?: boolean }

export type ToolContext<A = Agent> = {
  readonly agent: A
  readonly turn: number
  readonly step: number
  /** The id of this call, as the model wrote it: `agent.cancelToolCall(callId)` names it (R71). */
  readonly callId: string
  /** Aborts with the turn (R25), or when this call alone is cancelled (R71). */
  readonly signal: AbortSignal
  /**
   * Each steer applied while this call runs (interrupting or not), in acceptance order; completes
   * when the call settles (R70). A tool may end early on one (a wait, a long poll). The steers
   * still enter the transcript at the next drain, after the whole batch (R21).
   */
  readonly steering$: Observable<AgentMessage>
  /**
   * Stages context for the model (R22): no id, no event; it enters after the whole batch (R21).
   * A string means text with source `{kind:'tool', tool: <this tool's name>}`.
   */
  context(input: SendInput): void
  /** Ends the turn after this step, without `turnStopping` (R17). */
  concludeTurn(): void
}

/**
 * A tool the model may call. `parameters` is any Standard Schema (a zod, valibot or ArkType
 * schema, of any release) whose output is `Args`: the model sees it as JSON Schema, and the raw
 * JSON arguments are validated with it before `execute` runs (R21b). `execute` returns a value,
 * a `ToolResult`, or a Promise/Observable of one. `defineTool` infers `Args` from the schema.
 */
// biome-ignore lint/suspicious/noExplicitAny: a list of tools holds tools of every argument type
export type ToolDefinition<A = Agent, Args = any> = {
  readonly name: string
  readonly description: string
  readonly parameters: StandardSchemaV1<unknown, Args>
  readonly execute: (args: Args, ctx: ToolContext<A>) => unknown | ObservableInput<unknown>
  /** Safe to run beside other parallel tools of the same step (default false). */
  readonly parallel?: boolean
  /**
   * A call of this tool waits for `agent.approve(callId)` before it runs (R61): `true`, or a
   * predicate of the validated arguments. A predicate that throws or rejects counts as `true`
   * (the error goes to `agent/error`). Default: no approval.
   */
  readonly needsApproval?: boolean | ((args: Args, ctx: ApprovalContext<A>) => boolean | PromiseLike<boolean>)
  /**
   * How long a call of this tool may wait for a decision before it is denied with reason
   * `'timeout'` (R66); overrides the agent's `approvalTimeoutMs`. Measured on the agent's scheduler.
   */
  readonly approvalTimeoutMs?: number
}

/** What a `needsApproval` predicate is told besides the arguments. */
export type ApprovalContext<A = Agent> = {
  readonly agent: A
  readonly turn: number
  readonly step: number
  readonly callId: string
}

/**
 * Where tools come from when the list may change (R100): its current list on subscribe, then each
 * change. An MCP toolset is one; a `BehaviorSubject` of definitions is the smallest. The agent
 * uses the latest list of every source from its next step on, never inside a batch.
 */
export type ToolSource<A = Agent> = { readonly tools$: Observable<readonly ToolDefinition<A>[]> }

/** What the `tools` option takes: tools and tool sources side by side. */
export type ToolEntry<A = Agent> = ToolDefinition<A> | ToolSource<A>
