import type { Subscription } from 'rxjs'
import type { SessionEvent } from '../contracts/events.js'
import { errorText } from '../messages/errorText.js'
import type { RemoteSession } from '../postgres.js'
import type { Style } from './format.js'

/**
 * What `steerable attach` shows and does about approvals (R67): the requests and decisions of the
 * transcript as lines, a prompt for each call that starts waiting, and `/approve ID`, `/deny ID
 * [reason]` sent to the owner.
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
 * Prints, once per call, what to type for each approval that waits now (read from the committed
 * transcript: the calls the owner has paused on). A failed read is the transcript's to report.
 */
export const promptApprovals = (
  session: RemoteSession,
  style: Style,
  write: (line: string) => void,
): Subscription => {
  const prompted = new Set<string>()
  return session.approvals$.subscribe({
    next: (pending) => {
      for (const { key, callId, name, arguments: args } of pending) {
        if (prompted.has(key)) continue
        prompted.add(key)
        // The model's id when it names this call alone; else the key, which the model cannot
        // repeat (two calls of a step may share an id, or have none).
        const shared = callId === '' || pending.some((other) => other.key !== key && other.callId === callId)
        const ref = shared ? key : callId
        write(`${style.bold('approve?')} ${name}(${args}) · /approve ${ref} or /deny ${ref} [reason]`)
      }
    },
    error: () => {},
  })
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
