import type { Observable } from 'rxjs'
import type { AgentEvent, SessionEvent } from './events.js'
import type {
  AgentCancelCause,
  AgentMessageId,
  AgentStatus,
  CancelOptions,
  Message,
  SendInput,
  SendOptions,
} from './messages.js'

/** The session an agent owns: its durable transcript (docs/contract.md, section 3). */
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
