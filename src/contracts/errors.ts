/** Typed errors of the public surface. Each message says how to fix the call. */

import type { Outcome } from './inbox.js'
import type { AgentMessageId } from './messages.js'
import type { TurnEndReason } from './turnEndReason.js'

/**
 * One problem found in an input: where it is and what was wrong. The path starts with the name of
 * the argument (`input`, `options`, `cause`), then the keys inside it.
 */
export type InputIssue = { readonly path: readonly (string | number)[]; readonly message: string }

/**
 * Bad input to `send`, `cancel`, `createAgent` … (R2). A `TypeError`, so callers that already
 * catch type errors keep working. The message names the call and the first path, for example
 * `send(): input.content[0].text: expected string`. Throwing it means nothing was accepted.
 */
export class InvalidInputError extends TypeError {
  override readonly name = 'InvalidInputError'
  /** The problems found, at most {@link MAX_KEPT_ISSUES}; `issueCount` says how many there were. */
  readonly issues: readonly InputIssue[]
  readonly issueCount: number
  constructor(call: string, issues: readonly InputIssue[]) {
    super(`${call}: ${listIssues(issues)}`)
    this.issues = issues.length > MAX_KEPT_ISSUES ? issues.slice(0, MAX_KEPT_ISSUES) : issues
    this.issueCount = issues.length
  }
}

/** How many issues a message lists: twenty thousand bad blocks must not make a 2 MB message. */
export const MAX_LISTED_ISSUES = 10
/** How many issues `InvalidInputError.issues` keeps. */
export const MAX_KEPT_ISSUES = 100

const listIssues = (issues: readonly InputIssue[]): string => {
  const listed = issues.slice(0, MAX_LISTED_ISSUES).map(formatIssue).join('; ')
  const more = issues.length - MAX_LISTED_ISSUES
  return more > 0 ? `${listed}; and ${more} more issue${more === 1 ? '' : 's'}` : listed
}

/** `input.content[0].text: expected string` */
export const formatIssue = (issue: InputIssue): string => `${formatPath(issue.path)}: ${issue.message}`

export const formatPath = (path: readonly (string | number)[]): string =>
  path.reduce<string>(
    (acc, key, i) => (typeof key === 'number' ? `${acc}[${key}]` : i === 0 ? key : `${acc}.${key}`),
    '',
  ) || '(root)'

/**
 * A call on an agent whose `dispose()` has resolved (V2): nothing was accepted. Also how
 * `session.flush()` rejects once `dispose()` closed the store without everything durable (R40).
 */
export class AgentDisposedError extends Error {
  override readonly name = 'AgentDisposedError'
  /** @param detail What the call could not do, when there is more to say (`session.flush()`). */
  constructor(call: string, detail?: string) {
    super(
      `${call}: the agent is disposed${detail ? ` and ${detail}` : ''}; ` +
        'create a new agent to continue the session',
    )
  }
}

/** `retry()` while a turn or admission is running outside `requestError` (R24). */
/**
 * The agent is busy: `retry()` while a turn or admission runs outside `requestError` (R24), or a
 * send with `ifBusy: 'reject'` while work runs or waits to run (R47). Nothing was accepted.
 */
export class AgentBusyError extends Error {
  override readonly name = 'AgentBusyError'
  /** @param fix What to do instead; by default the advice for `retry()`. */
  constructor(call: string, fix = 'call retry() while idle or from a requestError hook') {
    super(`${call}: the agent is busy; ${fix}`)
  }
}

/**
 * A send would make the inbox hold more than `createAgent({maxQueued})` waiting items (R48).
 * Nothing was accepted.
 */
export class InboxFullError extends Error {
  override readonly name = 'InboxFullError'
  readonly limit: number
  constructor(call: string, limit: number) {
    super(
      `${call}: the inbox is full (${limit} waiting items, createAgent({maxQueued})); ` +
        'wait for an item to run, remove() one, or raise maxQueued',
    )
    this.limit = limit
  }
}

/**
 * `steer(x, {turn})` while the window is not open for that turn (R49): the correction would land
 * in another turn, or in none. Nothing was accepted.
 */
export class TurnMismatchError extends Error {
  override readonly name = 'TurnMismatchError'
  readonly expected: number
  /** The turn whose window is open (its admission counts), or `null` when none is. */
  readonly current: number | null
  constructor(call: string, expected: number, current: number | null) {
    super(
      `${call}: turn ${expected} is not the turn that accepts steering now ` +
        `(${current === null ? 'no turn is running' : `turn ${current} is`}); ` +
        'steer without {turn} to correct whatever runs, or followup() for a later turn',
    )
    this.expected = expected
    this.current = current
  }
}

/** An invariant of the contract does not hold on a stream (R30, R31). Names the rule. */
export class InvariantViolation extends Error {
  override readonly name = 'InvariantViolation'
  readonly rule: string
  constructor(rule: string, detail: string) {
    super(`${rule}: ${detail}`)
    this.rule = rule
  }
}

/**
 * A store's `flush()` did not finish in time (`createAgent({flushTimeoutMs})`, default 30 s). The
 * events stay in memory and are handed over again at the next flush (R40); raise the limit for a
 * slow store, or fix the store.
 */
export class FlushTimeoutError extends Error {
  override readonly name = 'FlushTimeoutError'
  readonly timeoutMs: number
  constructor(timeoutMs: number) {
    super(
      `the session store's flush() did not finish within ${timeoutMs} ms; the events are kept and ` +
        'flushed again at the next checkpoint (raise createAgent({flushTimeoutMs}) for a slow store)',
    )
    this.timeoutMs = timeoutMs
  }
}

/**
 * `approve(callId)` or `deny(callId)` of a call that does not wait for a decision now: never
 * requested, already decided, or its turn ended (R62). Nothing changed. `hint` says where the
 * calls that wait are listed (another process reads them elsewhere, R65).
 */
export class ApprovalNotPendingError extends Error {
  override readonly name = 'ApprovalNotPendingError'
  readonly callId: string
  constructor(
    call: string,
    callId: string,
    hint = 'read agent.approvals for the calls that wait, or subscribe to agent.approvals$',
  ) {
    super(`${call}: no approval is pending for tool call "${callId}"; ${hint}`)
    this.callId = callId
  }
}

/**
 * Why a `cancelToolCall(callId)` made from another process (R71) cancelled nothing: no call with
 * that id was running or waiting for approval when the owner reached the request (it had settled,
 * or the id is wrong). The owner never throws it: the request settles refused with its `name` and
 * `message`, which the client reads back as `false`, as the local call returns.
 */
export class ToolCallNotRunning extends Error {
  override readonly name = 'ToolCallNotRunning'
  readonly callId: string
  constructor(call: string, callId: string) {
    super(`${call}: no running tool call ${callId} (it settled, or the id is wrong)`)
    this.callId = callId
  }
}

/**
 * How `agent.reply$(id)` errors when message `id` never entered a turn (R82): it was discarded
 * (cancel, dispose, removed, expired), blocked by `promptSubmit`, or refused. `outcome` is the
 * fate `agent.outcome(id)` gives.
 */
export class MessageNotDeliveredError extends Error {
  override readonly name = 'MessageNotDeliveredError'
  readonly id: string
  readonly outcome: Exclude<Outcome, { readonly kind: 'delivered' }>
  constructor(call: string, id: string, outcome: Exclude<Outcome, { readonly kind: 'delivered' }>) {
    super(
      `${call}: message "${id}" was ${outcome.kind}${detail(outcome)}, so no turn replies to it; read .outcome for why`,
    )
    this.id = id
    this.outcome = outcome
  }
}

const detail = (outcome: Exclude<Outcome, { readonly kind: 'delivered' }>): string =>
  outcome.kind === 'discarded' ? ` (${outcome.reason})` : ''

/**
 * Why `agent.run(x)` rejects (R115): the turn the message opened ended other than `completed`
 * (`turn` says which, `reason` how: `error`, `aborted`, `budget`, `max-steps`, `max-tokens`,
 * `disposed`), or the message never opened one (`turn` absent; `reason` is its outcome:
 * blocked, discarded, removed or refused).
 */
export class TurnFailedError extends Error {
  override readonly name = 'TurnFailedError'
  /** The message `run()` sent. */
  readonly id: AgentMessageId
  /** The turn it opened; absent when it opened none. */
  readonly turn?: number
  readonly reason: TurnEndReason | Exclude<Outcome, { readonly kind: 'delivered' }>
  constructor(
    call: string,
    id: AgentMessageId,
    turn: number | undefined,
    reason: TurnEndReason | Exclude<Outcome, { readonly kind: 'delivered' }>,
  ) {
    super(`${call}: ${turn === undefined ? notRun(id, reason) : turnEnded(turn, reason)}`)
    this.id = id
    if (turn !== undefined) this.turn = turn
    this.reason = reason
  }
}

const turnEnded = (turn: number, reason: { readonly kind: string; readonly message?: string }): string =>
  `turn ${turn} ended ${reason.kind}${reason.message === undefined ? '' : `: ${reason.message}`}`

const notRun = (id: string, outcome: { readonly kind: string; readonly reason?: unknown }): string =>
  `message "${id}" was ${outcome.kind}${outcome.kind === 'discarded' ? ` (${String(outcome.reason)})` : ''}, ` +
  'so no turn ran; read .reason for why'
