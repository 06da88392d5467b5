import type { SchedulerLike } from 'rxjs'
import type { Agent } from './agent.js'
import type { CompactionOptions } from './compaction.js'
import type { AgentErrorEvent, BudgetLimits, SessionEvent, SessionEventOf } from './events.js'
import type { AgentHooks } from './hooks.js'
import type { ModelAdapter } from './model.js'
import type { SessionStore } from './store.js'
import type { ToolEntry } from './tools.js'

/** What `createAgent` takes; only `model` is required. */
export type AgentOptions = {
  /**
   * The model: a function from a request to a stream of events (`openaiModel(...)` from
   * `steerable/openai`, or `scriptedModel([...])` from `steerable/testing` in tests).
   */
  readonly model: ModelAdapter
  /** System prompt text, sent as `ModelRequest.system` with every request. */
  readonly instructions?: string
  /** Session/agent id; default: a new ULID. */
  readonly id?: string
  /**
   * Functions called at the loop's boundaries, each one function or an array: `promptSubmit`
   * (allow, rewrite or block a prompt), `step` (before each model request), `turnStopping`,
   * `requestError` (call `agent.retry()` here to retry a failed request).
   */
  readonly hooks?: AgentHooks<Agent>
  /**
   * Tools the model may call (the model sees their `ToolSpec`s), and tool sources whose list may
   * change (`{tools$}`, R100), side by side. Two tools with one name is an error.
   */
  readonly tools?: readonly ToolEntry<Agent>[]
  /**
   * The most items that may wait in the queue (waking and parked) plus staged steering; a send
   * beyond it throws `InboxFullError`. Default: unbounded.
   */
  readonly maxQueued?: number
  /** How many parallel-safe tool calls of one step may run at once; default 4. */
  readonly maxParallelToolCalls?: number
  /**
   * Where the transcript is kept: in memory by default, or `fileStore('session.jsonl')`. A store
   * that already holds events continues that session (turn numbers and messages continue).
   */
  readonly store?: SessionStore
  /**
   * How long one `flush()` of the store may take, in milliseconds, before it counts as a store
   * failure (`FlushTimeoutError` on `agent/error`; the events are kept and flushed again at the
   * next checkpoint). Bounds `dispose()` too: a store that never finishes cannot hold it forever.
   * Default 30 000; `Infinity` waits forever.
   */
  readonly flushTimeoutMs?: number
  /** Durable events to continue from when the store is empty; turn numbers continue. */
  readonly history?: readonly SessionEvent[]
  /**
   * Where the agent schedules its own moves (the deferred wake, the next turn); default
   * `asapScheduler`. Pass a `TestScheduler` to run an agent in virtual time in marble tests.
   */
  readonly scheduler?: SchedulerLike
  /**
   * How long a call may wait for approval before it is denied with reason `'timeout'` (R66); a
   * tool's own `approvalTimeoutMs` wins. Measured on `scheduler`. Default: no limit.
   */
  readonly approvalTimeoutMs?: number
  /**
   * Limits on the tokens the model reports and on the requests made, over the session (R80).
   * Passing one pauses the turn at its step boundary (`'pause'`, until `raiseBudget()` or
   * `cancel()`) or ends it with `turn/end {kind: 'budget'}` (`'stop'`).
   */
  readonly budget?: Budget
  /**
   * How history is compacted (R74, R76): the default `keepLastTurns` and summariser of
   * `compact()`, and `whenInputTokensExceed` to compact without being asked.
   */
  readonly compaction?: CompactionOptions
  /**
   * The most bytes one image or file block may carry (R86), measured on the decoded bytes of its
   * `data` (or of a `data:` URL); a larger one in a send, an inject, a steer, `ctx.context()` or a
   * tool's result is refused. Default 20 MiB (20 971 520).
   */
  readonly maxBlockBytes?: number
  /**
   * The most steps a turn may take (R116): the turn ends `max-steps` after that many, and the tool
   * calls of its last step are not run, as with `followup(x, {maxSteps})`, which overrides it for
   * one turn. Default 50; `Infinity` removes the cap.
   */
  readonly maxSteps?: number
  /**
   * How many times a request that fails with a retryable error (`retryable: true` on the error,
   * as `ModelRequestError` sets it for no answer, a dropped connection, 408, 409, 429 and 5xx)
   * before its first streamed event is made again, after 1 s, 2 s, 4 s … (±20%, at most 30 s, or
   * the error's `retryAfterMs`), measured on `scheduler` (R117). Only after the last does the
   * request fail and `requestError` run. Default 2; 0 turns retries off.
   */
  readonly maxRetries?: number
  /**
   * Called with each `agent/error` and each `turn/end` whose reason is `error` (R118). By default
   * one line per failed turn goes to `console.error`; `false` silences it. A throw of its own is
   * reported through RxJS's `config.onUnhandledError` and changes nothing.
   */
  readonly onError?: ((event: AgentErrorReport) => void) | false
}

/** What `onError` receives: an `agent/error` live event, or a `turn/end` whose reason is `error`. */
export type AgentErrorReport = AgentErrorEvent | SessionEventOf<'turn/end'>

export type Budget = BudgetLimits & { readonly onExceed: 'pause' | 'stop' }
