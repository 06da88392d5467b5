import type { Observable, SchedulerLike } from 'rxjs'
import type { AgentEvent, SessionEvent } from './events.js'
import type { AgentHooks } from './hooks.js'
import type {
  AgentCancelCause,
  AgentMessageId,
  AgentStatus,
  CancelOptions,
  Message,
  SendInput,
  SendOptions,
} from './messages.js'
import type { ModelAdapter } from './model.js'
import type { SessionStore } from './store.js'
import type { ToolDefinition } from './tools.js'

/** The session an agent owns: its durable transcript (SPEC section 3). */
export type AgentSession = {
  /** A frozen snapshot of the durable events so far, the same array until the next one is appended. */
  readonly events: readonly SessionEvent[]
  /** The surface projection (R38): what the model sees. */
  messages(): readonly Message[]
  /** Resolves when everything appended so far is durable. */
  flush(): Promise<void>
}

export type Agent = {
  readonly id: string
  readonly status: AgentStatus
  /** Emits the current status on subscribe, then each change. */
  readonly status$: Observable<AgentStatus>
  /** The acceptance window: where a `next-step` send goes right now (R4). */
  readonly acceptsNextStep: boolean
  send(input: SendInput, options: SendOptions): AgentMessageId
  /** `send(input, {target: 'next-turn', wakeup: true})`: a prompt for a later turn. */
  followup(input: SendInput): AgentMessageId
  /** `send(input, {target: 'next-step', wakeup: true})`: a correction for the running turn. */
  steer(input: SendInput): AgentMessageId
  /** `send(input, {target: 'next-step', wakeup: false})`: a fact for the model, no request. */
  inject(input: SendInput): AgentMessageId
  cancel(cause: AgentCancelCause, options?: CancelOptions): void
  retry(): void
  whenIdle(): Promise<void>
  dispose(): Promise<void>
  /** Live lifecycle events (not persisted). */
  readonly events$: Observable<AgentEvent>
  /** Durable events: replays the session so far, then live ones. */
  readonly transcript$: Observable<SessionEvent>
  readonly session: AgentSession
}

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
