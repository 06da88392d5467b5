import { Observable, type OperatorFunction } from 'rxjs'
import type { InjectSend, QueueSend } from '../machine/inputs.js'
import type { AcceptedSend } from '../messages/acceptSend.js'

const isQueueSend = (send: AcceptedSend): boolean =>
  send.options.target === 'next-turn' || send.options.wakeup

/**
 * Splits accepted sends by target and wakeup into the FIFO queue stream and the immediate-append
 * inject stream, and merges them back in arrival order for the reducer.
 *
 * The two streams are synchronous filters of one source, so merged in arrival order they are the
 * source with each send tagged by its stream: this operator is that, one subscriber. (A `connect`
 * with two filtered branches and a `merge` is the same value for value, and costs seven
 * subscribers each time the agent's engine is built: docs/performance.md#a-cheap-engine.)
 *
 * ```text
 * sends:   --f--s--i--p--|     f = followup, s = steer, i = inject, p = parked send
 * queue$:  --f--s-----p--|     (next-turn, or next-step with wakeup)
 * inject$: --------i-----|     (next-step without wakeup)
 * output:  --F--S--I--P--|     each tagged 'queue' or 'inject'
 * ```
 *
 * 1. Order is kept: each send is tagged as it arrives.
 * 2. Errors and completion of the source pass through once.
 * 3. Whether a queue send becomes steering, and whether an inject is staged or appended, is
 *    decided later by the reducer from the acceptance window (R4), never here.
 *
 * @returns An operator from accepted sends to tagged queue and inject sends.
 */
export const splitSends = (): OperatorFunction<AcceptedSend, QueueSend | InjectSend> => (sends$) =>
  new Observable<QueueSend | InjectSend>((subscriber) =>
    sends$.subscribe({
      next: (send) => subscriber.next(isQueueSend(send) ? toQueueSend(send) : toInjectSend(send)),
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    }),
  )

const toQueueSend = ({ message, options, text }: AcceptedSend): QueueSend => ({
  type: 'queue',
  message,
  target: options.target,
  wakeup: options.wakeup,
  text,
  // Always listed, so every queue send has one shape (docs/performance.md).
  interrupt: options.ifBusy === 'interrupt' ? true : undefined,
  turn: options.turn,
  deny: options.onApproval === 'deny' ? true : undefined,
  maxSteps: options.maxSteps,
  cut: options.interrupt === true ? true : undefined,
})
const toInjectSend = ({ message, options }: AcceptedSend): InjectSend =>
  options.onApproval === 'deny' ? { type: 'inject', message, deny: true } : { type: 'inject', message }
