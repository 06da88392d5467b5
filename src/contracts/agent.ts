import type { Observable } from 'rxjs'
import type { AgentSession } from './agentSession.js'
import type { DecisionOptions, PendingApproval } from './approvals.js'
import type { CompactOptions } from './compaction.js'
import type {
  AgentEvent,
  BudgetLimits,
  CompactionResult,
  SessionEvent,
  SessionUsage,
  TurnEndReason,
} from './events.js'
import type { InboxSnapshot, Outcome } from './inbox.js'
import type {
  AgentCancelCause,
  AgentMessageId,
  AgentStatus,
  CancelOptions,
  FollowupOptions,
  PresetOptions,
  SendInput,
  SendOptions,
  SteerOptions,
} from './messages.js'

/**
 * One conversation driven by a model, that accepts input at any moment. Made by `createAgent`.
 * Call its methods on the agent (`agent.steer(x)`); to pass one around, bind it
 * (`agent.steer.bind(agent)`) or wrap it (`(x) => agent.steer(x)`).
 *
 * @example
 * const agent = createAgent({ model })
 * agent.followup('Summarise the README')
 * agent.transcript$.subscribe((e) => { if (e.type === 'tool/call') agent.steer('Keep it short') })
 * await agent.whenIdle()
 */
export type Agent = {
  /** The session id (the `id` option, or a new ULID). */
  readonly id: string
  /** `'running'` while a prompt is being admitted or a turn runs (or several, back to back). */
  readonly status: AgentStatus
  /** Emits the current status on subscribe, then each change. */
  readonly status$: Observable<AgentStatus>
  /**
   * Whether a steer or inject would enter the running turn now (the acceptance window): open from
   * the moment a prompt is claimed until just before its `turn/end`.
   */
  readonly acceptsNextStep: boolean
  /**
   * Delivers input: the one primitive behind `followup`, `steer` and `inject`. Returns the
   * message's id at once; bad input throws `InvalidInputError` and changes nothing.
   *
   * @param input A string (user text), or `{content: ContentBlock[], source}`.
   * @param options `target: 'next-turn'` (its own turn) or `'next-step'` (the running turn, if
   *   any); `wakeup: false` never starts work by itself.
   * @example agent.send('later, maybe', { target: 'next-turn', wakeup: false }) // parked
   */
  send(input: SendInput, options: SendOptions): AgentMessageId
  /**
   * A prompt for a later turn: queued, and it starts a turn when the agent is idle.
   *
   * @example
   * const id = agent.followup('Now write the tests')
   * agent.followup('Stop and do this first', { ifBusy: 'interrupt' }) // runs next, cancels what runs
   */
  followup(input: SendInput, options?: FollowupOptions): AgentMessageId
  /**
   * `followup(input, options)` and the answer of the turn it opens, as one Promise (R115): it
   * resolves with the turn's last assistant text and usage when the turn ends `completed`, and
   * rejects with `TurnFailedError` when it ends any other way or the message never opens a turn.
   * A turn that waits for an approval keeps it pending until the approval is decided. Bad input
   * throws at once, as `followup()` does.
   *
   * @example
   * const { text } = await agent.run('What is 2 + 2?')
   */
  run(input: SendInput, options?: FollowupOptions): Promise<RunResult>
  /**
   * A correction for the turn that is running: it enters at the next step boundary, so the next
   * model request sees it. While nothing runs it is queued like a followup.
   *
   * @example
   * agent.steer('Use TypeScript, not Python')
   * agent.steer('Only for this turn', { turn: 3 }) // TurnMismatchError unless turn 3 runs
   */
  steer(input: SendInput, options?: SteerOptions): AgentMessageId
  /**
   * A fact the model should see without being asked to act: staged into the running turn, or
   * appended to the transcript at once while nothing runs (no turn, no model call).
   *
   * @example
   * agent.inject('The user switched to dark mode')
   * const ci = { kind: 'plugin', plugin: 'ci' } as const
   * agent.inject({ content: [{ type: 'text', text: 'CI is red' }], source: ci })
   */
  inject(input: SendInput, options?: PresetOptions): AgentMessageId
  /**
   * Stops the running admission or turn (it ends `aborted`) and drops the queued and steering
   * items (one `agent/inbox/discard`); staged context is still appended. With `{keepInbox: true}`
   * nothing is dropped and queued work runs right after. Does nothing when nothing is active or
   * pending.
   *
   * @example agent.cancel({ kind: 'user' }, { keepInbox: true })
   */
  cancel(cause: AgentCancelCause, options?: CancelOptions): void
  /**
   * Runs the last failed turn again as a retry turn: at once while idle, or after the failed turn
   * when called from a `requestError` hook. Throws `AgentBusyError` at any other busy moment.
   */
  retry(): void
  /**
   * Resolves when nothing runs, nothing is scheduled and no waking prompt is queued (parked items
   * and staged steering do not count). Never rejects.
   */
  whenIdle(): Promise<void>
  /**
   * Ends the agent: drops pending work, ends a running turn (`turn/end {disposed}`), flushes and
   * closes the store, completes the streams. Idempotent; later sends throw `AgentDisposedError`.
   */
  dispose(): Promise<void>
  /**
   * Live lifecycle events, not persisted: `agent/inbox/enqueue`, `…/dequeue`, `…/discard`,
   * `agent/status`, `agent/settled`, `agent/error`, `agent/stream/delta` …
   *
   * @example agent.events$.pipe(ofType('agent/error')).subscribe(({ error }) => log(error))
   */
  readonly events$: Observable<AgentEvent>
  /** Durable events: replays the session so far on subscribe, then each new one. */
  readonly transcript$: Observable<SessionEvent>
  /** The durable transcript and what the model sees of it. */
  readonly session: AgentSession
  /**
   * The token usage of every model request of the session (R73), folded from its log (so it
   * survives reopening). Requests whose provider sent no usage count as `estimatedRequests`.
   */
  readonly usage: SessionUsage
  /** Emits `usage` on subscribe, then the new total after each change. */
  readonly usage$: Observable<SessionUsage>
  /**
   * What waits, as data (frozen): the queue (waking and parked prompts, in order), then the
   * outbox (staged steering and context). The same object until the inbox changes.
   */
  readonly inbox: InboxSnapshot
  /** Emits the inbox on subscribe, then after each change. */
  readonly inbox$: Observable<InboxSnapshot>
  /**
   * What became of a message: delivered (as the prompt, steering or context, with its turn and
   * `seq`), blocked by `promptSubmit`, or discarded (cancel, dispose, removed, expired). Settles
   * once, when its fate is decided; at once when it already was.
   *
   * @example const { kind } = await agent.outcome(agent.followup('hi'))
   */
  outcome(id: AgentMessageId): Promise<Outcome>
  /** Withdraws a waiting item (queued, parked, steering or context); `discard` with reason `removed`. */
  remove(id: AgentMessageId): void
  /** Changes a waiting item's content in place: same id, same position (`agent/inbox/replace`). */
  replace(id: AgentMessageId, input: SendInput): void
  /** Moves a queued item to `index` in the queue (clamped); `agent/inbox/reorder` when it moved. */
  move(id: AgentMessageId, index: number): void
  /**
   * "Steer this queued item now": it becomes steering of the running turn, or, while nothing
   * runs, the next turn.
   */
  promote(id: AgentMessageId): void
  /** The tool calls that wait for a decision, in the order they were requested (R61). Frozen. */
  readonly approvals: readonly PendingApproval[]
  /** Emits the pending approvals on subscribe, then after each change. */
  readonly approvals$: Observable<readonly PendingApproval[]>
  /**
   * Lets a pending call run (R62); `call` is its `key` or an unshared `callId` (else invalid input,
   * or `ApprovalNotPendingError`). When the last pending call of the step is decided, the turn goes on.
   */
  approve(call: string, options?: DecisionOptions): void
  /** Refuses a pending call: it gets an error result with code `DENIED` and the reason (R62). */
  deny(call: string, options?: DecisionOptions): void
  /**
   * Sets new budget limits, each above what is already used (`InvalidInputError` otherwise), and
   * continues a turn paused on its budget (R80).
   */
  raiseBudget(limits: BudgetLimits): void
  /**
   * Undoes the last `turns` turns of the conversation (R77): a durable `rollback` event after
   * which `session.messages()` is what it was when the turn before them ended. The log keeps
   * everything; the inbox is untouched; the next turn's number still follows the last one. Only
   * while idle (`AgentBusyError`); `turns` must be 1 … the turns there are (`InvalidInputError`).
   */
  rollback(turns: number): void
  /**
   * Replaces the older messages with a summary (R74): one durable `compaction` event, after
   * which `session.messages()` is the summary followed by the last `keepLastTurns` turns. It runs
   * at a turn boundary: at once while idle, else after the running turn and before the next
   * admission. Sends made meanwhile wait as they would for any turn boundary (R75); `cancel()`
   * stops it. Resolves with what it came to (a failed summariser is `{kind: 'error'}`, also
   * published on `agent/error`); a call made while one is due or running shares its result.
   */
  compact(options?: CompactOptions): Promise<CompactionResult>
  /**
   * Cancels one tool call of the running batch (R71): its `ctx.signal` aborts, and its result is
   * an error with code `CANCELLED` and the reason, whatever its `execute` does after. The other
   * calls and the turn go on; a call that waits for approval never runs. `call` as for `approve`;
   * `false` (and nothing changes) for a call that is unknown or already has its result.
   */
  cancelToolCall(call: string, options?: CancelToolCallOptions): boolean
  /**
   * `acceptsNextStep` as a stream (R82): the current value on subscribe, then each change, in the
   * order of the events that changed it: it opens before a claim's `running` and closes right
   * before the `turn/end` it closes for. Completes when the agent ends.
   *
   * @example agent.window$.subscribe((open) => (steerButton.disabled = !open))
   */
  readonly window$: Observable<boolean>
  /**
   * The text of the step being streamed, accumulated (R82): each emission is the whole text of
   * that step so far; a new step starts from `''`. Joining while a step streams gives its text so
   * far at once. Only `text` deltas count (not reasoning).
   *
   * @example agent.text$.subscribe(({ text }) => (answer.textContent = text))
   */
  readonly text$: Observable<StepText>
  /**
   * The durable events of the turn message `id` opened (a followup) or entered (a steer, or
   * context staged into a running turn), from its `turn/start` (or its own `steering/message` or
   * `user/message`) to that turn's `turn/end`; then it completes (R82). Context appended while no
   * turn runs gives its one `user/message`. Replays what already happened. Errors with
   * `MessageNotDeliveredError` (`.outcome`) when the message was discarded, blocked or refused,
   * and with `InvalidInputError` for an id this agent never returned.
   *
   * @example agent.reply$(agent.followup('hi')).pipe(ofType('assistant/message')).subscribe(show)
   */
  reply$(id: AgentMessageId): Observable<SessionEvent>
  /** `outcome(id)` as an Observable of one value (R82); errors as `outcome(id)` rejects. */
  outcome$(id: AgentMessageId): Observable<Outcome>
}

/** What `agent.run(x)` resolves with (R115): the turn message `id` opened, ended `completed`. */
export type RunResult = {
  readonly id: AgentMessageId
  readonly turn: number
  /** The text of the turn's last assistant message that has text; `''` when none has. */
  readonly text: string
  /** The turn's token usage: its requests, as `agent.usage` counts them for the session (R73). */
  readonly usage: SessionUsage
  readonly reason: Extract<TurnEndReason, { readonly kind: 'completed' | 'stopped' }>
}

/** What `agent.text$` emits: the text streamed so far by step `step` of turn `turn`. */
export type StepText = { readonly turn: number; readonly step: number; readonly text: string }

/** The options of `cancelToolCall`: why, as the model will read it. */
export type CancelToolCallOptions = { readonly reason?: string }
