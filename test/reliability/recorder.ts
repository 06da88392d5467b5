/**
 * The recorder: the first subscriber of both streams (from creation), so it sees each event
 * before any reentrant subscriber, plus the invariant operators of R30 and R31.
 */
import type { TestScheduler } from 'rxjs/testing'
import { type Agent, inboxConservation, statusAlternation } from '../../src/index.js'
import type { Log } from './log.js'

/** Records `agent` into `log`; returns the live set of steering ids still staged. */
export const record = (agent: Agent, log: Log, scheduler: TestScheduler): ReadonlySet<string> => {
  let claimMark: string | undefined
  const steering = new Set<string>()
  // The recorder: first subscriber of both streams, so it sees each event before any reaction.
  agent.events$.subscribe({
    next: (event) => {
      log.live.push(event)
      log.timeline.push({ frame: scheduler.now(), live: event })
      // A claim starts when it opens the window (with `running` when idle, R10): what is accepted
      // from then on arrives during the admission, after the prompt (R12).
      if (event.type === 'agent/status' && event.status === 'running') claimMark = log.maxId
      // An effective cancel aborts a claim that has not dequeued yet (R14): the next claim opens
      // without a `running` event, and what came before its dequeue is its inherited prefix.
      if (event.type === 'agent/cancel-requested') claimMark = undefined
      if (event.type === 'agent/inbox/dequeue') {
        log.dequeueWatermark.set(event.message.id, claimMark ?? log.maxId)
        claimMark = undefined
        steering.delete(event.message.id)
      }
      if (event.type === 'agent/inbox/enqueue' && event.placement === 'steering')
        steering.add(event.message.id)
      if (event.type === 'agent/inbox/discard') for (const m of event.messages) steering.delete(m.id)
    },
    error: (error: unknown) => log.streamErrors.push(error),
    complete: () => {
      log.completed.events = true
    },
  })
  agent.transcript$.subscribe({
    next: (event) => {
      if (event.type === 'turn/start') claimMark = undefined
      log.durable.push(event)
      log.timeline.push({ frame: scheduler.now(), durable: event })
    },
    error: (error: unknown) => log.streamErrors.push(error),
    complete: () => {
      log.completed.transcript = true
    },
  })
  agent.events$.pipe(inboxConservation(), statusAlternation()).subscribe({
    error: (error: unknown) => log.streamErrors.push(error),
  })

  return steering
}
