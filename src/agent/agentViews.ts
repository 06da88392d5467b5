import { defer, distinctUntilChanged, filter, map, type Observable } from 'rxjs'
import type { StepText } from '../contracts/agent.js'
import type { AgentSession } from '../contracts/agentSession.js'
import type { PendingApproval } from '../contracts/approvals.js'
import type { SessionEvent, SessionUsage } from '../contracts/events.js'
import type { InboxSnapshot, Outcome } from '../contracts/inbox.js'
import type { AgentMessageId, AgentStatus } from '../contracts/messages.js'
import { selectStatus, selectStepText, selectUsage } from '../machine/selectors.js'
import type { Driver } from '../runtime/driver.js'
import type { AgentParts } from './agentParts.js'
import { ApprovalsView } from './approvalsView.js'
import { InboxView } from './inboxView.js'
import { replayThenLive } from './replayThenLive.js'
import { replyStream } from './replyStream.js'
import { SessionView } from './sessionView.js'

/**
 * What an agent shows, made the first time one of them is read: the reactive handles (R82) as
 * views of the driver's snapshots (each `snapshots$.pipe(map(select), distinctUntilChanged())`,
 * so it has the current value on subscribe, one emission after each reduction that changed it,
 * and completes with the agent), the inbox and approvals lists, the transcript and the session.
 * One object per agent that was ever looked at, none for one that never was.
 */
export class AgentViews<A> {
  readonly #driver: Driver<A>
  readonly #parts: AgentParts
  #status$: Observable<AgentStatus> | undefined
  #usage$: Observable<SessionUsage> | undefined
  #transcript$: Observable<SessionEvent> | undefined
  #approvals: ApprovalsView | undefined
  #approvals$: Observable<readonly PendingApproval[]> | undefined
  #inbox: InboxView | undefined
  #inbox$: Observable<InboxSnapshot> | undefined
  #session: AgentSession | undefined

  constructor(driver: Driver<A>, parts: AgentParts) {
    this.#driver = driver
    this.#parts = parts
  }

  get status$(): Observable<AgentStatus> {
    this.#status$ ??= this.#driver.snapshots$.pipe(map(selectStatus), distinctUntilChanged())
    return this.#status$
  }

  /**
   * `text$` (R82): the text of the step being streamed, the whole of it so far; a new step starts
   * from its first delta. Reasoning and steps without text show nothing. Made when read.
   *
   * ```text
   * deltas:  -a-b----c-|     a = (1.1,'Hel'), b = (1.1,'lo'), c = (1.2,'Bye')
   * text$:   -A-B----C-|     A = 'Hel', B = 'Hello', C = 'Bye'
   * ```
   */
  get text$(): Observable<StepText> {
    return this.#driver.snapshots$.pipe(
      map(selectStepText),
      filter((t): t is StepText => t !== undefined),
      distinctUntilChanged(sameText),
    )
  }

  /** The state keeps the same frozen usage until a request's usage is written (R73). */
  get usage$(): Observable<SessionUsage> {
    this.#usage$ ??= this.#driver.snapshots$.pipe(map(selectUsage), distinctUntilChanged())
    return this.#usage$
  }

  get transcript$(): Observable<SessionEvent> {
    const { transcript } = this.#parts
    this.#transcript$ ??= replayThenLive(() => transcript.events.slice(), this.#driver.durable$)
    return this.#transcript$
  }

  get approvals(): readonly PendingApproval[] {
    this.#approvals ??= new ApprovalsView()
    return this.#approvals.current(this.#driver.getSnapshot(), this.#parts.transcript.events)
  }

  /** A step's requests arrive as one list, not one by one; the same list object while unchanged. */
  get approvals$(): Observable<readonly PendingApproval[]> {
    this.#approvals ??= new ApprovalsView()
    const view = this.#approvals
    const { transcript } = this.#parts
    this.#approvals$ ??= this.#driver.snapshots$.pipe(
      map((s) => view.current(s, transcript.events)),
      distinctUntilChanged(),
    )
    return this.#approvals$
  }

  get inbox(): InboxSnapshot {
    this.#inbox ??= new InboxView()
    return this.#inbox.current(this.#driver.getSnapshot())
  }

  get inbox$(): Observable<InboxSnapshot> {
    this.#inbox ??= new InboxView()
    const view = this.#inbox
    this.#inbox$ ??= this.#driver.snapshots$.pipe(
      map((s) => view.current(s)),
      distinctUntilChanged(),
    )
    return this.#inbox$
  }

  reply$(id: AgentMessageId): Observable<SessionEvent> {
    return replyStream(this.#driver, this.#parts.transcript, id)
  }

  outcome(id: AgentMessageId): Promise<Outcome> {
    // A microtask later: a send made inside a delivery has been processed by then (it waited in
    // the trampoline), so its id is known.
    return Promise.resolve().then(() => this.#driver.outcomes.outcome(id))
  }

  outcome$(id: AgentMessageId): Observable<Outcome> {
    return defer(() => this.outcome(id))
  }

  get session(): AgentSession {
    this.#session ??= new SessionView(this.#parts.transcript, this.#parts.store)
    return this.#session
  }
}

const sameText = (a: StepText, b: StepText): boolean =>
  a.text === b.text && a.step === b.step && a.turn === b.turn
