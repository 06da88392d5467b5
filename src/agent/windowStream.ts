import { Observable } from 'rxjs'
import { selectAcceptsNextStep } from '../machine/selectors.js'
import type { Driver } from '../runtime/driver.js'

/**
 * `agent.window$` (R82): `acceptsNextStep` on subscribe, then each change, told where the reducer
 * moved the window among a reduction's outputs. So it opens before the claim's `running` (R10)
 * and closes before the `turn/end` it closes for (R19), whichever stream a reader subscribed to
 * first. Completes when the agent's pipeline ends.
 *
 * ```text
 * followup('hi'):       -f
 * window$ with events:  c(qordtup)-(aeCnxi)   c, C: closed; o: open; r: running; n: turn/end
 *                       (marbles/reactiveHandles.spec.ts has the whole legend)
 * ```
 */
export const windowStream = <A>(driver: Driver<A>): Observable<boolean> =>
  new Observable<boolean>((subscriber) => {
    let last = selectAcceptsNextStep(driver.state())
    subscriber.next(last)
    if (driver.ended) return subscriber.complete()
    // A subscriber that joins inside a reduction already read its final value: a move placed
    // later among that reduction's outputs is not news to it.
    return driver.watch({
      window: (open) => {
        if (open === last) return
        last = open
        subscriber.next(open)
      },
      delivered: () => {},
      ended: () => subscriber.complete(),
    })
  })
