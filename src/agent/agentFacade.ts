import { defer, distinctUntilChanged, filter, map, Observable, startWith } from 'rxjs'
import type {
  Agent,
  AgentSession,
  CancelToolCallOptions,
  DecisionOptions,
  PendingApproval,
  StepText,
} from '../contracts/agent.js'
import type { CompactOptions } from '../contracts/compaction.js'
import { AgentBusyError, AgentDisposedError, ApprovalNotPendingError } from '../contracts/errors.js'
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
import type { Command } from '../machine/inputs.js'
import {
  canRetry,
  selectAcceptsNextStep,
  selectHasBudget,
  selectIsCancellable,
  selectIsPending,
  selectStatus,
  selectUsage,
} from '../machine/selectors.js'
import type { DeliveryState } from '../machine/state.js'
import { acceptedSend, checkSend, FOLLOWUP, INJECT, isPlainPreset, STEER } from '../messages/acceptSend.js'
import { parseRaise } from '../messages/parseBudget.js'
import { parseCancelArgs } from '../messages/parseCancelArgs.js'
import { checkCompact } from '../messages/parseCompactOptions.js'
import { parseCancelToolCall, parseDecision } from '../messages/parseDecision.js'
import { rollbackTarget } from '../messages/parseRollback.js'
import { Driver } from '../runtime/driver.js'
import type { EngineConfig } from '../runtime/engine.js'
import { EXTENSIONS } from '../runtime/extensions.js'
import { Extensions } from './agentExtensions.js'
import { ApprovalsView } from './approvalsView.js'
import { nextCompactionEnd } from './compactHistory.js'
import { moveCommand, promoteCommand, removeCommand, replaceCommand } from './inboxControl.js'
import { replayThenLive } from './replayThenLive.js'
import { replyStream } from './replyStream.js'
import { checkSendPolicy } from './sendPolicy.js'
import { SessionView } from './sessionView.js'
import { textStream } from './textStream.js'
import { usageStream } from './usageStream.js'
import { windowStream } from './windowStream.js'

/**
 * The agent `createAgent` returns: a thin class over its `Driver`. Every method lives on the
 * prototype and every stream is made when first read, so an agent costs its fields, not a
 * closure per method (docs/performance.md#what-an-idle-agent-holds). It checks what callers hand
 * in (bad input throws and changes nothing) and forwards the rest to the driver.
 */
export class AgentFacade implements Agent {
  readonly id: string
  readonly #driver: Driver<Agent>
  readonly #maxQueued: number | undefined
  #session: AgentSession | undefined
  #status$: Observable<AgentStatus> | undefined
  #usage$: Observable<SessionUsage> | undefined
  #transcript$: Observable<SessionEvent> | undefined
  #approvals: ApprovalsView | undefined
  #approvals$: Observable<readonly PendingApproval[]> | undefined

  constructor(config: EngineConfig<Agent>, state: DeliveryState, maxQueued: number | undefined) {
    this.id = config.agentId
    this.#driver = new Driver<Agent>(this, config, state)
    this.#maxQueued = maxQueued
  }

  /** The driver, for `createAgent` to finish opening the agent (restored outcomes, owed effects). */
  static driverOf(agent: AgentFacade): Driver<Agent> {
    return agent.#driver
  }

  get status(): AgentStatus {
    return selectStatus(this.#driver.state())
  }

  get status$(): Observable<AgentStatus> {
    this.#status$ ??= defer(() =>
      this.#driver.events$.pipe(
        filter((e) => e.type === 'agent/status'),
        map((e) => e.status),
        startWith(this.status),
        distinctUntilChanged(),
      ),
    )
    return this.#status$
  }

  get acceptsNextStep(): boolean {
    return selectAcceptsNextStep(this.#driver.state())
  }

  // The reactive handles (R82) are made when read, not kept: a field each would cost every agent.
  get window$(): Observable<boolean> {
    return windowStream(this.#driver)
  }

  get text$(): Observable<StepText> {
    return textStream(this.#driver)
  }

  reply$(id: AgentMessageId): Observable<SessionEvent> {
    return replyStream(this.#driver, id)
  }

  outcome$(id: AgentMessageId): Observable<Outcome> {
    return defer(() => this.outcome(id))
  }

  send(input: SendInput, options: SendOptions): AgentMessageId {
    this.#accepting('send()')
    return this.#send(checkSend(input, options, undefined, 'send()', this.#maxBlockBytes), 'send()')
  }

  followup(input: SendInput, options?: FollowupOptions): AgentMessageId {
    return this.#send(checkSend(input, options, FOLLOWUP, 'followup()', this.#maxBlockBytes), 'followup()')
  }

  steer(input: SendInput, options?: SteerOptions): AgentMessageId {
    return this.#send(checkSend(input, options, STEER, 'steer()', this.#maxBlockBytes), 'steer()')
  }

  inject(input: SendInput, options?: PresetOptions): AgentMessageId {
    return this.#send(checkSend(input, options, INJECT, 'inject()', this.#maxBlockBytes), 'inject()')
  }

  cancel(cause: AgentCancelCause, options?: CancelOptions): void {
    const args = parseCancelArgs(cause, options)
    if (!this.#driver.finished)
      this.#driver.command({ type: 'cancel', cause: args.cause, keepInbox: args.options.keepInbox === true })
  }

  retry(): void {
    this.#accepting('retry()')
    if (!canRetry(this.#driver.state())) throw new AgentBusyError('retry()')
    this.#driver.command({ type: 'retry' })
  }

  whenIdle(): Promise<void> {
    return this.#driver.whenIdle()
  }

  dispose(): Promise<void> {
    if (!this.#driver.finished) this.#driver.command({ type: 'dispose' })
    return this.#driver.completed()
  }

  get events$(): Observable<AgentEvent> {
    return this.#driver.events$
  }

  get transcript$(): Observable<SessionEvent> {
    const { transcript } = this.#driver.config
    this.#transcript$ ??= replayThenLive(() => transcript.events.slice(), this.#driver.durable$)
    return this.#transcript$
  }

  get usage(): SessionUsage {
    return this.#driver.config.transcript.usage
  }

  get usage$(): Observable<SessionUsage> {
    this.#usage$ ??= usageStream(this.#driver.config.transcript, this.#driver.durable$)
    return this.#usage$
  }

  get session(): AgentSession {
    this.#session ??= new SessionView(this.#driver.config.transcript, this.#driver.config.store)
    return this.#session
  }

  get inbox(): InboxSnapshot {
    return this.#driver.inbox()
  }

  get inbox$(): Observable<InboxSnapshot> {
    return this.#driver.inboxes.snapshots$
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
    this.#control(replaceCommand(id, input, this.#maxBlockBytes), 'replace()')
  }

  move(id: AgentMessageId, index: number): void {
    this.#control(moveCommand(id, index), 'move()')
  }

  promote(id: AgentMessageId): void {
    this.#control(promoteCommand(id), 'promote()')
  }

  get approvals(): readonly PendingApproval[] {
    this.#approvals ??= new ApprovalsView()
    return this.#approvals.current(this.#driver.state(), this.#driver.config.transcript.events)
  }

  get approvals$(): Observable<readonly PendingApproval[]> {
    // After each reduction, as inbox$: a step's requests arrive as one list, not one by one.
    this.#approvals$ ??= new Observable<readonly PendingApproval[]>((subscriber) => {
      let last = this.approvals
      subscriber.next(last)
      return this.#driver.watch({
        delivered: () => {
          const next = this.approvals
          if (next === last) return
          last = next
          subscriber.next(next)
        },
        ended: () => subscriber.complete(),
      })
    })
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
    if (!selectIsCancellable(this.#driver.state(), callId) || this.#driver.decisionsAhead.has(callId))
      return false
    this.#driver.command({ type: 'cancel-call', callId, reason })
    return true
  }

  rollback(turns: number): void {
    this.#accepting('rollback()')
    const idle = this.#driver.state().activity === null && this.status === 'idle'
    const toTurn = rollbackTarget(turns, this.#driver.config.transcript.timelineTurns, idle)
    this.#driver.command({ type: 'rollback', toTurn })
  }

  compact(options?: CompactOptions): Promise<CompactionResult> {
    this.#accepting('compact()')
    const checked = checkCompact(options)
    const { summarizers } = this.#driver.config
    const ref = summarizers.add(checked.summarize)
    const keepLastTurns = checked.keepLastTurns ?? summarizers.keepLastTurns
    const compact = () => this.#driver.command({ type: 'compact', ref, keepLastTurns })
    return nextCompactionEnd(this.#driver.events$, compact).finally(() => summarizers.forget(ref))
  }

  raiseBudget(limits: BudgetLimits): void {
    this.#accepting('raiseBudget()')
    const state = this.#driver.state()
    const checked = parseRaise(limits, selectUsage(state), selectHasBudget(state))
    this.#driver.command({ type: 'raise-budget', limits: checked })
  }

  /** The seams companions use (`extensionsOf`): made when asked for, under a registered symbol. */
  get [EXTENSIONS](): Extensions {
    return new Extensions(this, this.#driver, this.#maxQueued)
  }

  /** The agent's `maxBlockBytes` (R86), which every send and replace checks its media against. */
  get #maxBlockBytes(): number {
    return this.#driver.config.maxBlockBytes
  }

  #accepting(call: string): void {
    if (this.#driver.finished) throw new AgentDisposedError(call)
  }

  /** A checked send: the policy decides at call time (R47–R49), then the id, then the pipeline. */
  #send(checked: { value: string | UserMessageData; options: SendOptions }, call: string): AgentMessageId {
    this.#accepting(call)
    const { options } = checked
    // The plain presets skip the policy unless a bound is set (the hot path of a send).
    if (!isPlainPreset(options) || this.#maxQueued !== undefined)
      checkSendPolicy(this.#driver.state(), this.#driver.pending, options, this.#maxQueued, call)
    const accepted = acceptedSend(checked.value, options)
    this.#driver.enter(accepted)
    return accepted.message.id
  }

  /** R62: only a pending call can be decided; anything else throws and changes nothing. */
  #decide(call: string, callId: string, options: unknown, decision: 'approved' | 'denied'): void {
    this.#accepting(call)
    const d = parseDecision(call, callId, options)
    // A decision still in the trampoline (made earlier in this delivery) counts as made.
    if (!selectIsPending(this.#driver.state(), d.callId) || this.#driver.decisionsAhead.has(d.callId))
      throw new ApprovalNotPendingError(call, d.callId)
    this.#driver.command({ type: 'decide', callId: d.callId, decision, reason: d.reason, source: d.source })
  }

  /** Inbox control (R43–R46): checked input first; after `dispose()` they throw. */
  #control(command: Command, call: string): void {
    this.#accepting(call)
    this.#driver.command(command)
  }
}
