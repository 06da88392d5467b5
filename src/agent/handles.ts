import { distinctUntilChanged, filter, map, type Observable } from 'rxjs'
import type { PendingApproval, StepText } from '../contracts/agent.js'
import type { SessionUsage } from '../contracts/events.js'
import type { InboxSnapshot } from '../contracts/inbox.js'
import type { AgentStatus } from '../contracts/messages.js'
import { selectStatus, selectStepText } from '../machine/selectors.js'
import type { DeliveryState } from '../machine/state.js'
import type { Transcript } from '../session/transcript.js'
import type { ApprovalsView } from './approvalsView.js'
import type { InboxView } from './inboxView.js'

/**
 * The reactive handles (R82) as views of the driver's snapshots: each is
 * `snapshots$.pipe(map(select), distinctUntilChanged())`, so it has the current value on
 * subscribe, one emission after each reduction that changed it, and completes with the agent.
 */
type Snapshots = Observable<DeliveryState>

export const status$Of = (snapshots$: Snapshots): Observable<AgentStatus> =>
  snapshots$.pipe(map(selectStatus), distinctUntilChanged())

/** A step's requests arrive as one list, not one by one; the same list object while unchanged. */
export const approvals$Of = (
  snapshots$: Snapshots,
  view: ApprovalsView,
  transcript: Transcript,
): Observable<readonly PendingApproval[]> =>
  snapshots$.pipe(
    map((s) => view.current(s, transcript.events)),
    distinctUntilChanged(),
  )

export const inbox$Of = (snapshots$: Snapshots, view: InboxView): Observable<InboxSnapshot> =>
  snapshots$.pipe(
    map((s) => view.current(s)),
    distinctUntilChanged(),
  )

/** The ledger gives the same frozen object until a request's usage is appended (R73). */
export const usage$Of = (snapshots$: Snapshots, transcript: Transcript): Observable<SessionUsage> =>
  snapshots$.pipe(
    map(() => transcript.usage),
    distinctUntilChanged(),
  )

/**
 * `text$` (R82): the text of the step being streamed, the whole of it so far; a new step starts
 * from its first delta. Reasoning and steps without text show nothing.
 *
 * ```text
 * deltas:  -a-b----c-|     a = (1.1,'Hel'), b = (1.1,'lo'), c = (1.2,'Bye')
 * text$:   -A-B----C-|     A = 'Hel', B = 'Hello', C = 'Bye'
 * ```
 */
export const text$Of = (snapshots$: Snapshots): Observable<StepText> =>
  snapshots$.pipe(
    map(selectStepText),
    filter((t): t is StepText => t !== undefined),
    distinctUntilChanged(sameText),
  )

const sameText = (a: StepText, b: StepText): boolean =>
  a.text === b.text && a.step === b.step && a.turn === b.turn
