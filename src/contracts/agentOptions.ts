import type { SchedulerLike } from 'rxjs'
import type { Agent } from './agent.js'
import type { SessionEvent } from './events.js'
import type { AgentHooks } from './hooks.js'
import type { ModelAdapter } from './model.js'
import type { SessionStore } from './store.js'
import type { ToolDefinition } from './tools.js'

export type AgentOptions = {
  readonly model: ModelAdapter
  /** System prompt text, sent as `ModelRequest.system` with every request. */
  readonly instructions?: string
  /** Session/agent id; default: a new ULID. */
  readonly id?: string
  readonly hooks?: AgentHooks<Agent>
  /** Tools the model may call; the model sees their `ToolSpec`s. */
  readonly tools?: readonly ToolDefinition<Agent>[]
  /** How many parallel-safe tool calls of one step may run at once; default 4. */
  readonly maxParallelToolCalls?: number
  /** Default: in memory. A store that already holds events continues that session (R37). */
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
  /** For the deferred wake and the driver's next move; default `asapScheduler`. */
  readonly scheduler?: SchedulerLike
}
