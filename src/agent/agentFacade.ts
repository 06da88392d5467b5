import type { Observable } from 'rxjs'
import type { Agent, CancelToolCallOptions, RunResult, StepText } from '../contracts/agent.js'
import type { AgentSession } from '../contracts/agentSession.js'
import type { DecisionOptions, PendingApproval } from '../contracts/approvals.js'
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
} from '../contracts/messages.js'
import type { Command } from '../machine/inputs.js'
import {
  canRetry,
  selectAcceptsNextStep,
  selectIsIdle,
  selectStatus,
  selectUsage,
} from '../machine/selectors.js'
import { FOLLOWUP, INJECT, STEER } from '../messages/acceptSend.js'
import { parseCancelArgs } from '../messages/parseCancelArgs.js'
import { checkCompact } from '../messages/parseCompactOptions.js'
import { rollbackTarget } from '../messages/parseRollback.js'
import type { Driver } from '../runtime/driver.js'
import { EXTENSIONS } from '../runtime/extensions.js'
import { Extensions } from './agentExtensions.js'
import type { AgentParts } from './agentParts.js'
import { AgentViews } from './agentViews.js'
import { compactNow } from './compactHistory.js'
import { cancelCall, decide, raiseBudget } from './humanCalls.js'
import { moveCommand, promoteCommand, removeCommand, replaceCommand } from './inboxControl.js'
import { runResult } from './runResult.js'
import { sendChecked } from './sendChecked.js'

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
  #views: AgentViews<Agent> | undefined

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
    return this.#view.status$
  }

  get acceptsNextStep(): boolean {
    return selectAcceptsNextStep(this.#driver.getSnapshot())
  }

  // The reactive handles (R82) are made when read, not kept: a field each would cost every agent.
  get window$(): Observable<boolean> {
    return this.#driver.window$
  }

  get text$(): Observable<StepText> {
    return this.#view.text$
  }

  reply$(id: AgentMessageId): Observable<SessionEvent> {
    return this.#view.reply$(id)
  }

  outcome$(id: AgentMessageId): Observable<Outcome> {
    return this.#view.outcome$(id)
  }

  send(input: SendInput, options: SendOptions): AgentMessageId {
    this.#accepting('send()')
    return sendChecked(this.#driver, this.#parts, input, options, undefined, 'send()')
  }

  followup(input: SendInput, options?: FollowupOptions): AgentMessageId {
    return sendChecked(this.#driver, this.#parts, input, options, FOLLOWUP, 'followup()')
  }

  run(input: SendInput, options?: FollowupOptions): Promise<RunResult> {
    return runResult(sendChecked(this.#driver, this.#parts, input, options, FOLLOWUP, 'run()'), this.#view)
  }

  steer(input: SendInput, options?: SteerOptions): AgentMessageId {
    return sendChecked(this.#driver, this.#parts, input, options, STEER, 'steer()')
  }

  inject(input: SendInput, options?: PresetOptions): AgentMessageId {
    return sendChecked(this.#driver, this.#parts, input, options, INJECT, 'inject()')
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
    return this.#view.transcript$
  }

  get usage(): SessionUsage {
    return selectUsage(this.#driver.getSnapshot())
  }

  get usage$(): Observable<SessionUsage> {
    return this.#view.usage$
  }

  get session(): AgentSession {
    return this.#view.session
  }

  get inbox(): InboxSnapshot {
    return this.#view.inbox
  }

  get inbox$(): Observable<InboxSnapshot> {
    return this.#view.inbox$
  }

  outcome(id: AgentMessageId): Promise<Outcome> {
    return this.#view.outcome(id)
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
    return this.#view.approvals
  }

  get approvals$(): Observable<readonly PendingApproval[]> {
    return this.#view.approvals$
  }

  approve(callId: string, options?: DecisionOptions): void {
    this.#decide('approve()', callId, options, 'approved')
  }

  deny(callId: string, options?: DecisionOptions): void {
    this.#decide('deny()', callId, options, 'denied')
  }

  cancelToolCall(callId: string, options?: CancelToolCallOptions): boolean {
    this.#accepting('cancelToolCall()')
    return cancelCall(this.#driver, callId, options)
  }

  rollback(turns: number): void {
    this.#accepting('rollback()')
    const idle = selectIsIdle(this.#driver.getSnapshot())
    const toTurn = rollbackTarget(turns, this.#parts.transcript.timelineTurns, idle)
    this.#driver.send({ type: 'rollback', toTurn })
  }

  compact(options?: CompactOptions): Promise<CompactionResult> {
    this.#accepting('compact()')
    return compactNow(this.#driver, this.#parts.summarizers, checkCompact(options))
  }

  raiseBudget(limits: BudgetLimits): void {
    this.#accepting('raiseBudget()')
    raiseBudget(this.#driver, limits)
  }

  /** The seams companions use (`extensionsOf`): made when asked for, under a registered symbol. */
  get [EXTENSIONS](): Extensions {
    return new Extensions(this, this.#driver, this.#parts)
  }

  get #view(): AgentViews<Agent> {
    this.#views ??= new AgentViews(this.#driver, this.#parts)
    return this.#views
  }

  #accepting(call: string): void {
    if (this.#driver.finished) throw new AgentDisposedError(call)
  }

  #decide(call: string, callId: string, options: unknown, decision: 'approved' | 'denied'): void {
    this.#accepting(call)
    decide(this.#driver, call, callId, options, decision)
  }

  /** Inbox control (R43–R46): checked input first; after `dispose()` they throw. */
  #control(command: Command, call: string): void {
    this.#accepting(call)
    this.#driver.send(command)
  }
}
