import { Observable } from 'rxjs'
import type { SessionEvent } from '../contracts/events.js'

/**
 * The durable events so far, then each new one: `transcript$`. The live stream is subscribed to
 * before the history is read, and what it emits while the history is still being handed out
 * waits behind it, so an event the subscriber itself causes during the replay (an inject
 * answered from a replayed event) reaches it once, after the history, and none is lost between
 * the two. Seqs at or below the history's last are skipped: the history holds them already.
 */
export const replayThenLive = (
  history: () => readonly SessionEvent[],
  live$: Observable<SessionEvent>,
): Observable<SessionEvent> =>
  new Observable<SessionEvent>((subscriber) => {
    let held: SessionEvent[] | undefined = []
    let last = 0
    const pass = (event: SessionEvent) => {
      if (event.seq > last) {
        last = event.seq
        subscriber.next(event)
      }
    }
    const subscription = live$.subscribe({
      next: (event) => (held ? held.push(event) : pass(event)),
      error: (error: unknown) => subscriber.error(error),
      complete: () => {
        if (!held) subscriber.complete()
      },
    })
    for (const event of history()) {
      if (subscriber.closed) return subscription
      pass(event)
    }
    // What arrived during the replay, and what arrives while that is handed out, in order.
    while (held.length > 0 && !subscriber.closed) pass(held.shift() as SessionEvent)
    held = undefined
    if (subscription.closed && !subscriber.closed) subscriber.complete()
    return subscription
  })
