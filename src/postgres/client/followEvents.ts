import { Observable } from 'rxjs'
import { deepFreeze } from '../../messages/snapshot.js'
import { liveChannel } from '../channels.js'
import type { NotificationHub } from '../db/notificationHub.js'
import { isLiveBatch } from '../rows/liveBatches.js'
import { checkLiveEvent } from '../rows/liveEventSchema.js'
import type { EventsLostEvent, RemoteAgentEvent } from '../rows/liveEvents.js'

const lost = (reason: EventsLostEvent['reason'], eventType?: string): EventsLostEvent =>
  deepFreeze({ type: 'remote/events-lost', reason, ...(eventType === undefined ? {} : { eventType }) })

/**
 * The live events of `sessionId`'s owner, as it publishes them (R56, `publishEvents`), from the
 * moment the LISTEN is in place: live only, no replay (`transcript$` is the durable record).
 * Each event is validated and deep-frozen; where events were lost on the way (too large for a
 * notification, dropped by a struggling owner, missed by this LISTEN connection, invalid) a
 * `remote/events-lost` marker stands in their place. Never errors: a session nobody drives is
 * silent. Unsubscribing UNLISTENs once nobody else follows the session.
 */
export const followEvents = (hub: NotificationHub, sessionId: string): Observable<RemoteAgentEvent> =>
  new Observable<RemoteAgentEvent>((subscriber) => {
    let publisher: string | undefined
    let last = 0
    return hub.follow(liveChannel(sessionId), (payload) => {
      let batch: unknown
      try {
        batch = JSON.parse(payload)
      } catch {
        return
      }
      // Another session whose channel name collides, or something else on the channel.
      if (!isLiveBatch(batch, sessionId)) return
      // Batches of one publisher are numbered from 1: a gap is a notification this connection missed.
      if (batch.p === publisher && batch.n > last + 1) subscriber.next(lost('missed'))
      publisher = batch.p
      last = batch.n
      for (const event of batch.e) {
        if (subscriber.closed) return
        const checked = checkLiveEvent(event)
        if (checked !== undefined) subscriber.next(deepFreeze(checked))
        else {
          const type = (event as { type?: unknown } | null)?.type
          subscriber.next(lost('invalid', typeof type === 'string' ? type : undefined))
        }
      }
    })
  })
