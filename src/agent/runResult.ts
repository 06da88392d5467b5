import type { Observable } from 'rxjs'
import type { RunResult } from '../contracts/agent.js'
import { MessageNotDeliveredError, TurnFailedError } from '../contracts/errors.js'
import type { SessionEvent, SessionUsage, TurnEndReason } from '../contracts/events.js'
import type { AgentMessageId, ContentBlock } from '../contracts/messages.js'
import { foldUsage, NO_USAGE } from '../machine/usageFold.js'

const CALL = 'run()'
/** A reply that ended without its `turn/end`: the agent ended while the turn was paused (R64). */
const DISPOSED: TurnEndReason = Object.freeze({ kind: 'disposed' })

/** The text blocks of an assistant message, joined; `undefined` when it has none. */
const textOf = (content: readonly ContentBlock[]): string | undefined => {
  let text: string | undefined
  for (const block of content) if (block.type === 'text') text = (text ?? '') + block.text
  return text
}

/**
 * `agent.run(x)` (R115): the Promise of the turn message `id` opened, read from `views.reply$(id)`
 * (which replays, so nothing is missed): its last assistant text and its usage when it ends
 * `completed`; a `TurnFailedError` when it ends otherwise, or when the message never entered a
 * turn (the `MessageNotDeliveredError` of `reply$`, as its outcome).
 */
export const runResult = (
  id: AgentMessageId,
  views: { reply$(id: AgentMessageId): Observable<SessionEvent> },
): Promise<RunResult> =>
  new Promise<RunResult>((resolve, reject) => {
    let usage: SessionUsage = NO_USAGE
    let text = ''
    let turn: number | undefined
    let reason: TurnEndReason | undefined
    views.reply$(id).subscribe({
      next: (event) => {
        usage = foldUsage(usage, event)
        if (event.type === 'turn/start') turn = event.data.turn
        else if (event.type === 'assistant/message') text = textOf(event.data.content) ?? text
        else if (event.type === 'turn/end') {
          turn = event.data.turn
          reason = event.data.reason
        }
      },
      error: (error: unknown) =>
        reject(
          error instanceof MessageNotDeliveredError
            ? new TurnFailedError(CALL, id, undefined, error.outcome)
            : error,
        ),
      complete: () => {
        const ended = reason ?? DISPOSED
        if (ended.kind === 'completed' && turn !== undefined)
          resolve({ id, turn, text, usage, reason: ended })
        else reject(new TurnFailedError(CALL, id, turn, ended))
      },
    })
  })
