import { defer, type Observable } from 'rxjs'
import type {
  Agent,
  AgentSession,
  CancelToolCallOptions,
  DecisionOptions,
  PendingApproval,
  StepText,
} from '../contracts/agent.js'
import type { CompactOptions } from '../contracts/compaction.js'
import { AgentBusyError, AgentDisposedError } from '../contracts/errors.js'
import type {
  AgentEvent,
  BudgetLimits,
  CompactionResult,
  SessionEvent,
  SessionUsage,
} from '../contracts/events.js'
import type { InboxSnapshot, Outcome } from '../contracts/inbox.js'
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
  UserMessageData,
} from '../contracts/messages.js'
import type { Request } from '../machine/check.js'
import type { Command } from '../machine/inputs.js'
import {
  canRetry,
  selectAcceptsNextStep,
  selectHasBudget,
  selectIsIdle,
  selectStatus,
  selectUsage,
} from '../machine/selectors.js'
import { acceptedSend, checkSend, FOLLOWUP, INJECT, isPlainPreset, STEER } from '../messages/acceptSend.js'
import { parseCancelArgs } from '../messages/parseCancelArgs.js'
import type { Driver } from '../runtime/driver.js'
import { EXTENSIONS } from '../runtime/extensions.js'
import { Extensions } from './agentExtensions.js'
import type { AgentParts } from './agentParts.js'
import { ApprovalsView } from './approvalsView.js'
import { checkCompact, nextCompactionEnd } from './compactHistory.js'
import { approvals$Of, inbox$Of, status$Of, text$Of, usage$Of } from './handles.js'
import { parseCancelToolCall, parseDecision, parseRaise } from './humanInTheLoop.js'
import { moveCommand, promoteCommand, removeCommand, replaceCommand } from './inboxControl.js'
import { InboxView } from './inboxView.js'
import { refusalError } from './refusalError.js'
import { replayThenLive } from './replayThenLive.js'
import { replyStream } from './replyStream.js'
import { rollbackTarget } from './rollbackTurns.js'
import { SessionView } from './sessionView.js'

/**
 * The agent `createAgent` returns: a thin class over its driver's one door. Every method lives on
 * the prototype and every stream is made when first read, so an agent costs its fields, not a
 * closure per method (docs/performance.md#what-an-idle-agent-holds). It checks what callers hand
 * in (bad input throws and changes nothing), asks the driver whether the call may be made now
 * (`check`), and sends the rest; getters and streams read snapshots through selectors.
 */
export class AgentFacade implements Agent {
  readonly id: string
  readonly #driver: Driver<Agent>
  readonly #parts: AgentParts
  #session: AgentSession | undefined
  #status$: Observable<AgentStatus> | undefined
  #usage$: Observable<SessionUsage> | undefined
  #transcript$: Observable<SessionEvent> | undefined
  #approvals: ApprovalsView | undefined
  #approvals$: Observable<readonly PendingApproval[]> | undefined
  #inbox: InboxView | undefined
  #inbox$: Observable<InboxSnapshot> | undefined

  /** @param open Makes the agent's driver, given the agent (what its hooks and tools receive). */
  constructor(id: string, parts: AgentParts, open: (agent: Agent) => Driver<Agent>) {
    this.id = id
    this.#parts = parts
    this.#driver = open(this)
  }

  get status(): AgentStatus {
    return selectStatus(this.#driver.getSnapshot())
  }

  get status$(): Observable<AgentStatus> {
    this.#status$ ??= status$Of(this.#driver.snapshots$)
    return this.#status$
  }

  get acceptsNextStep(): boolean {
    return selectAcceptsNextStep(this.#driver.getSnapshot())
  }

  // The reactive handles (R82) are made when read, not kept: a field each would cost every agent.
  get window$(): Observable<boolean> {
    return this.#driver.window$
  }

  get text$(): Observable<StepText> {
    return text$Of(this.#driver.snapshots$)
  }

  reply$(id: AgentMessageId): Observable<SessionEvent> {
    return replyStream(this.#driver, this.#parts.transcript, id)
  }

  outcome$(id: AgentMessageId): Observable<Outcome> {
    return defer(() => this.outcome(id))
  }

  send(input: SendInput, options: SendOptions): AgentMessageId {
    this.#accepting('send()')
    return this.#send(checkSend(input, options, undefined, 'send()', this.#parts.maxBlockBytes), 'send()')
  }

  followup(input: SendInput, options?: FollowupOptions): AgentMessageId {
    return this.#send(
      checkSend(input, options, FOLLOWUP, 'followup()', this.#parts.maxBlockBytes),
      'followup()',
    )
  }

  steer(input: SendInput, options?: SteerOptions): AgentMessageId {
    return this.#send(checkSend(input, options, STEER, 'steer()', this.#parts.maxBlockBytes), 'steer()')
  }

  inject(input: SendInput, options?: PresetOptions): AgentMessageId {
    return this.#send(checkSend(input, options, INJECT, 'inject()', this.#parts.maxBlockBytes), 'inject()')
  }

  cancel(cause: AgentCancelCause, options?: CancelOptions): void {
    const args = parseCancelArgs(cause, options)
    if (!this.#driver.finished)
      this.#driver.send({ type: 'cancel', cause: args.cause, keepInbox: args.options.keepInbox === true })
  }

  retry(): void {
    this.#accepting('retry()')
    if (!canRetry(this.#driver.getSnapshot())) throw new AgentBusyError('retry()')
    this.#driver.send({ type: 'retry' })
  }

  whenIdle(): Promise<void> {
    return this.#driver.whenIdle()
  }

  dispose(): Promise<void> {
    if (!this.#driver.finished) this.#driver.send({ type: 'dispose' })
    return this.#driver.completed()
  }

  get events$(): Observable<AgentEvent> {
    return this.#driver.events$
  }

  get transcript$(): Observable<SessionEvent> {
    const { transcript } = this.#parts
    this.#transcript$ ??= replayThenLive(() => transcript.events.slice(), this.#driver.durable$)
    return this.#transcript$
  }

  get usage(): SessionUsage {
    return this.#parts.transcript.usage
  }

  get usage$(): Observable<SessionUsage> {
    this.#usage$ ??= usage$Of(this.#driver.snapshots$, this.#parts.transcript)
    return this.#usage$
  }

  get session(): AgentSession {
    this.#session ??= new SessionView(this.#parts.transcript, this.#parts.store)
    return this.#session
  }

  get inbox(): InboxSnapshot {
    this.#inbox ??= new InboxView()
    return this.#inbox.current(this.#driver.getSnapshot())
  }

  get inbox$(): Observable<InboxSnapshot> {
    this.#inbox ??= new InboxView()
    this.#inbox$ ??= inbox$Of(this.#driver.snapshots$, this.#inbox)
    return this.#inbox$
  }

  outcome(id: AgentMessageId): Promise<Outcome> {
    // A microtask later: a send made inside a delivery has been processed by then (it waited in
    // the trampoline), so its id is known.
    return Promise.resolve().then(() => this.#driver.outcomes.outcome(id))
  }

  remove(id: AgentMessageId): void {
    this.#control(removeCommand(id), 'remove()')
  }

  replace(id: AgentMessageId, input: SendInput): void {
    this.#control(replaceCommand(id, input, this.#parts.maxBlockBytes), 'replace()')
  }

  move(id: AgentMessageId, index: number): void {
    this.#control(moveCommand(id, index), 'move()')
  }

  promote(id: AgentMessageId): void {
    this.#control(promoteCommand(id), 'promote()')
  }

  get approvals(): readonly PendingApproval[] {
    this.#approvals ??= new ApprovalsView()
    return this.#approvals.current(this.#driver.getSnapshot(), this.#parts.transcript.events)
  }

  get approvals$(): Observable<readonly PendingApproval[]> {
    this.#approvals ??= new ApprovalsView()
    this.#approvals$ ??= approvals$Of(this.#driver.snapshots$, this.#approvals, this.#parts.transcript)
    return this.#approvals$
  }

  approve(callId: string, options?: DecisionOptions): void {
    this.#decide('approve()', callId, options, 'approved')
  }

  deny(callId: string, options?: DecisionOptions): void {
    this.#decide('deny()', callId, options, 'denied')
  }

  cancelToolCall(callId: string, options?: CancelToolCallOptions): boolean {
    this.#accepting('cancelToolCall()')
    const { reason } = parseCancelToolCall(callId, options)
    // A cancel or a decision still in the trampoline settles the call first: this one is late.
    if (this.#driver.check({ kind: 'cancel-call', callId }) !== undefined) return false
    this.#driver.send({ type: 'cancel-call', callId, reason })
    return true
  }

  rollback(turns: number): void {
    this.#accepting('rollback()')
    const idle = selectIsIdle(this.#driver.getSnapshot())
    const toTurn = rollbackTarget(turns, this.#parts.transcript.timelineTurns, idle)
    this.#driver.send({ type: 'rollback', toTurn })
  }

  compact(options?: CompactOptions): Promise<CompactionResult> {
    this.#accepting('compact()')
    const checked = checkCompact(options)
    const { summarizers } = this.#parts
    const ref = summarizers.add(checked.summarize)
    const keepLastTurns = checked.keepLastTurns ?? summarizers.keepLastTurns
    const compact = () => this.#driver.send({ type: 'compact', ref, keepLastTurns })
    return nextCompactionEnd(this.#driver.events$, compact).finally(() => summarizers.forget(ref))
  }

  raiseBudget(limits: BudgetLimits): void {
    this.#accepting('raiseBudget()')
    const state = this.#driver.getSnapshot()
    const checked = parseRaise(limits, selectUsage(state), selectHasBudget(state))
    this.#driver.send({ type: 'raise-budget', limits: checked })
  }

  /** The seams companions use (`extensionsOf`): made when asked for, under a registered symbol. */
  get [EXTENSIONS](): Extensions {
    return new Extensions(this, this.#driver, this.#parts)
  }

  #accepting(call: string): void {
    if (this.#driver.finished) throw new AgentDisposedError(call)
  }

  /** A checked send: the driver's check first (R47–R49), then the id, then the door. */
  #send(checked: { value: string | UserMessageData; options: SendOptions }, call: string): AgentMessageId {
    this.#accepting(call)
    const { options } = checked
    // The plain presets need no check unless a bound is set (the hot path of a send).
    if (!isPlainPreset(options) || this.#parts.maxQueued !== undefined)
      this.#refuse(call, { kind: 'send', options, maxQueued: this.#parts.maxQueued })
    const accepted = acceptedSend(checked.value, options)
    this.#driver.send(accepted)
    return accepted.message.id
  }

  /** R62: only a pending call can be decided; anything else throws and changes nothing. */
  #decide(call: string, callId: string, options: unknown, decision: 'approved' | 'denied'): void {
    this.#accepting(call)
    const d = parseDecision(call, callId, options)
    this.#refuse(call, { kind: 'decide', callId: d.callId })
    this.#driver.send({ type: 'decide', callId: d.callId, decision, reason: d.reason, source: d.source })
  }

  /** Throws the error of the driver's refusal of `request`, if it refuses it. */
  #refuse(call: string, request: Request): void {
    const refusal = this.#driver.check(request)
    if (refusal !== undefined) throw refusalError(call, refusal)
  }

  /** Inbox control (R43–R46): checked input first; after `dispose()` they throw. */
  #control(command: Command, call: string): void {
    this.#accepting(call)
    this.#driver.send(command)
  }
}
