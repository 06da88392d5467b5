import type { Subscription } from 'rxjs'
import type { PendingApproval } from '../contracts/approvals.js'
import type { SessionEvent } from '../contracts/events.js'
import { errorText } from '../messages/errorText.js'
import type { RemoteSession } from '../postgres.js'
import { ANSWER_HELP, type ApprovalAnswer } from './approvalPrompt.js'
import type { Style } from './format.js'

/**
 * What `steerable attach` shows and does about approvals (R67): the requests and decisions of the
 * transcript as lines, the question the owner's terminal asks, answered the same way (`y`, `n`,
 * `n <reason>`), and `/approve ID`, `/deny ID [reason]` sent to the owner.
 */

/** An `approval/request` or `approval/decision` as a line; `undefined` for any other event. */
export const approvalLine = (event: SessionEvent, style: Style): string | undefined => {
  if (event.type === 'approval/request')
    return style.dim(
      `  ⏸ ${event.data.name}(${event.data.arguments}) waits for approval · ${event.data.callId}`,
    )
  if (event.type !== 'approval/decision') return undefined
  const { callId, decision, reason, source } = event.data
  const mark = decision === 'approved' ? '✓' : '✗'
  return style.dim(`  ${mark} ${callId} ${decision} (${source.kind})${reason ? `: ${reason}` : ''}`)
}

/**
 * How to name `call` to the owner: the model's id when it names this call alone, else its key,
 * which the model cannot repeat (two calls of a step may share an id, or have none).
 */
const callRef = (call: PendingApproval, pending: readonly PendingApproval[]): string =>
  call.callId === '' || pending.some((other) => other.key !== call.key && other.callId === call.callId)
    ? call.key
    : call.callId

/** What `promptApprovals` keeps: its subscription, and the call `y` and `n` answer now. */
export type AttachApprovals = {
  readonly subscription: Subscription
  /**
   * How to name the first call that waits, in the model's order (as in the owner's terminal),
   * to the owner: its id when that names it alone, else its key; `undefined` when none waits.
   */
  asked(): string | undefined
}

/**
 * Asks about the call that `y` and `n` answer, as the owner's terminal does, each time another
 * call becomes that one (read from the committed transcript: the calls the owner has paused on),
 * with how many more wait and the `/approve ID`, `/deny ID` that decide any of them. A failed read
 * is the transcript's to report.
 */
export const promptApprovals = (
  session: RemoteSession,
  style: Style,
  write: (line: string) => void,
): AttachApprovals => {
  let pending: readonly PendingApproval[] = []
  let asked: string | undefined
  const subscription = session.approvals$.subscribe({
    next: (next) => {
      pending = next
      const first = next[0]
      if (first?.key === asked) return
      asked = first?.key
      if (!first) return
      const more = next.length > 1 ? ` (${next.length - 1} more wait)` : ''
      const ref = callRef(first, next)
      const ids = `/approve ${ref} or /deny ${ref} [reason]`
      write(`${style.bold(`approve ${first.name}(${first.arguments})?`)} ${ANSWER_HELP}${more} · ${ids}`)
    },
    error: () => {},
  })
  return {
    subscription,
    asked: () => {
      const first = pending[0]
      return first && callRef(first, pending)
    },
  }
}

/**
 * Sends a decision; its line says what the owner did with it: applied, or refused because the
 * call was not waiting (`ApprovalNotPendingError`), or not stored. Bad input throws at once.
 */
export const sendDecision = (
  session: RemoteSession,
  command: { readonly kind: 'approve' | 'deny'; readonly callId: string; readonly reason?: string },
  write: (line: string) => void,
  failed: () => void,
): Promise<void> => {
  const { callId, reason } = command
  const decided =
    command.kind === 'approve'
      ? session.approve(callId)
      : session.deny(callId, reason === undefined ? {} : { reason })
  const what = command.kind === 'approve' ? 'approved' : 'denied'
  return decided.then(
    () => write(`✓ ${what} ${callId}`),
    (error: unknown) => {
      // A decision the owner refused changes nothing; only one that was not stored is a failure.
      if (!(error instanceof Error && error.name === 'ApprovalNotPendingError')) failed()
      write(`✗ not ${what}: ${errorText(error)}`)
    },
  )
}

/** `y` or `n [reason]` typed while `asked` waits: the decision on it, as `/approve`, `/deny` would send. */
export const answerCommand = (
  answer: ApprovalAnswer,
  asked: string,
): { readonly kind: 'approve' | 'deny'; readonly callId: string; readonly reason?: string } =>
  answer.kind === 'yes'
    ? { kind: 'approve', callId: asked }
    : answer.reason === undefined
      ? { kind: 'deny', callId: asked }
      : { kind: 'deny', callId: asked, reason: answer.reason }
