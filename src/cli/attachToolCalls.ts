import type { ToolStartEvent } from '../contracts/events.js'
import { errorText } from '../messages/errorText.js'
import type { RemoteSession } from '../postgres.js'
import type { Style } from './format.js'

/**
 * What `steerable attach` sends to the owner beyond messages: a tool call's cancel (R71, R72; a
 * line for each call the owner starts gives the id `/cancel-tool ID` takes) and a rollback (R77).
 */

/** A call the owner started, as a line that says how to cancel it. */
export const toolStartLine = (event: ToolStartEvent, style: Style): string =>
  style.dim(`  ⚙ ${event.name} running · /cancel-tool ${event.callId}`)

/**
 * Sends a tool call's cancel; its line says what the owner did with it: cancelled, or nothing
 * because the call was not running then, or not stored (the only failure). Bad input throws at once.
 */
export const sendToolCancel = (
  session: RemoteSession,
  callId: string,
  write: (line: string) => void,
  failed: () => void,
): Promise<void> =>
  session.cancelToolCall(callId).then(
    (cancelled) =>
      write(
        cancelled ? `✓ cancelled ${callId}` : `✗ ${callId} was not running (it finished, or the id is wrong)`,
      ),
    (error: unknown) => {
      failed()
      write(`✗ cancel of ${callId} not sent (${errorText(error)})`)
    },
  )

/**
 * Sends `/rollback N` (R77): the owner applies it at its next idle moment, and the transcript then
 * prints the `rollback` line; a count the owner refuses, or a request not stored, is a line here.
 * Bad input (a count that is not a whole number from 1) throws at once.
 */
export const sendRollback = (
  session: RemoteSession,
  turns: number,
  write: (line: string) => void,
  failed: () => void,
): Promise<void> =>
  session.rollback(turns).then(
    () => undefined,
    (error: unknown) => {
      failed()
      write(`✗ rollback not applied (${errorText(error)})`)
    },
  )
