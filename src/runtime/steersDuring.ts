import { defer, filter, map, type Observable, takeWhile } from 'rxjs'
import type { AgentEvent } from '../contracts/events.js'
import type { AgentMessage, AgentMessageId } from '../contracts/messages.js'

/**
 * R70: the steers applied from now on while call `index` of `turn`/`step` runs, in acceptance
 * order, completing at that call's `agent/tool/end` (matched by its place in the step: the model
 * may give two calls one id). A steer is applied when it is staged: its
 * `agent/inbox/enqueue` as steering (a steer, or a queued item promoted), and still staged once
 * its reduction is over (a guarded steer that expired at once was never applied).
 */
export const steersDuring = (
  events$: Observable<AgentEvent>,
  staged: (id: AgentMessageId) => boolean,
  at: { readonly turn: number; readonly step: number; readonly index: number },
): Observable<AgentMessage> =>
  defer(() =>
    events$.pipe(
      takeWhile(
        (e) =>
          !(e.type === 'agent/tool/end' && e.index === at.index && e.step === at.step && e.turn === at.turn),
      ),
      filter(
        (e): e is Extract<AgentEvent, { type: 'agent/inbox/enqueue' }> =>
          e.type === 'agent/inbox/enqueue' && e.placement === 'steering' && staged(e.message.id),
      ),
      map((e) => e.message),
    ),
  )
