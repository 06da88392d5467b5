import { connect, filter, map, merge, type OperatorFunction } from 'rxjs'
import type { InjectSend, QueueSend } from '../machine/inputs.js'
import type { AcceptedSend } from '../messages/acceptSend.js'
import { fanOut } from './fanOut.js'

const isQueueSend = (send: AcceptedSend): boolean =>
  send.options.target === 'next-turn' || send.options.wakeup
const isInjectSend = (send: AcceptedSend): boolean => !isQueueSend(send)

/**
 * Splits accepted sends by target and wakeup into the FIFO queue stream and the immediate-append
 * inject stream, and merges them back in arrival order for the reducer.
 *
 * Like `partition`, but subscribes to the source once (`connect`, sharing through `fanOut`, a
 * lighter Subject) and keeps one ordered output.
 *
 * ```text
 * sends:   --f--s--i--p--|     f = followup, s = steer, i = inject, p = parked send
 * queue$:  --f--s-----p--|     (next-turn, or next-step with wakeup)
 * inject$: --------i-----|     (next-step without wakeup)
 * output:  --F--S--I--P--|     each tagged 'queue' or 'inject'
 * ```
 *
 * 1. Order is kept: the branches are synchronous filters of one shared source.
 * 2. Errors and completion of the source pass through once.
 * 3. Whether a queue send becomes steering, and whether an inject is staged or appended, is
 *    decided later by the reducer from the acceptance window (R4), never here.
 *
 * @returns An operator from accepted sends to tagged queue and inject sends.
 */
export const splitSends = (): OperatorFunction<AcceptedSend, QueueSend | InjectSend> =>
  connect(
    (sends$) =>
      merge(
        sends$.pipe(
          filter(isQueueSend),
          map(
            ({ message, options, text }): QueueSend => ({
              type: 'queue',
              message,
              target: options.target,
              wakeup: options.wakeup,
              text,
              // Always listed, so every queue send has one shape (docs/performance.md).
              interrupt: options.ifBusy === 'interrupt' ? true : undefined,
              turn: options.turn,
            }),
          ),
        ),
        sends$.pipe(
          filter(isInjectSend),
          map(({ message }): InjectSend => ({ type: 'inject', message })),
        ),
      ),
    { connector: fanOut },
  )
