/**
 * The recorder: the first subscriber of both streams (from creation), so it sees each event
 * before any reentrant subscriber, plus the invariant operators of R30 and R31.
 */
import type { TestScheduler } from 'rxjs/testing'
import { type Agent, inboxConservation, statusAlternation } from '../../src/index.js'
import type { Log } from './log.js'

/** Records `agent` into `log`; returns the live set of steering ids still staged. */
export const record = (agent: Agent, log: Log, scheduler: TestScheduler): ReadonlySet<string> => {
  /** Where the claim in progress began (`running`), and the last id accepted before it. */
  let claimMark: { readonly maxId: string; readonly position: number } | undefined
  /** A queued item's dequeue: a claim, unless its enqueue(steering) follows at once (a promote, R46). */
  let held: { readonly id: string; readonly maxId: string; readonly position: number } | undefined
  const settleHeld = (next?: { readonly id: string; readonly steering: boolean }): void => {
    if (!held) return
    if (!(next?.steering && next.id === held.id)) {
      log.dequeueWatermark.set(held.id, held.maxId)
      log.claimStart.set(held.id, held.position)
      claimMark = undefined
    }
    held = undefined
  }
  const steering = new Set<string>()
  // The recorder: first subscriber of both streams, so it sees each event before any reaction.
  agent.events$.subscribe({
    next: (event) => {
      const position = log.timeline.length
      log.live.push(event)
      log.timeline.push({ frame: scheduler.now(), live: event })
      settleHeld(
        event.type === 'agent/inbox/enqueue'
          ? { id: event.message.id, steering: event.placement === 'steering' }
          : undefined,
      )
      // A claim starts when it opens the window (with `running` when idle, R10): what is accepted
      // from then on arrives during the admission, after the prompt (R12).
      if (event.type === 'agent/status' && event.status === 'running')
        claimMark = { maxId: log.maxId, position }
      // An effective cancel aborts a claim that has not dequeued yet (R14): the next claim opens
      // without a `running` event, and what came before its dequeue is its inherited prefix.
      if (event.type === 'agent/cancel-requested') claimMark = undefined
      // A compaction opens the window with `running` (R74); the claim after it opens without
      // one, and what was sent during the compaction is its inherited prefix (R75, R12).
      if (event.type === 'agent/compaction/end') claimMark = undefined
      if (event.type === 'agent/inbox/dequeue') {
        const { id } = event.message
        if (!steering.delete(id)) held = { id, ...(claimMark ?? { maxId: log.maxId, position }) }
      }
      if (event.type === 'agent/inbox/enqueue') {
        // A send inside a delivery waits in the trampoline until this (R47, R48 count it).
        log.enqueued.add(event.message.id)
        log.unprocessed.delete(event.message.id)
        if (event.placement === 'steering') steering.add(event.message.id)
      }
      if (event.type === 'agent/inbox/discard') for (const m of event.messages) steering.delete(m.id)
    },
    error: (error: unknown) => log.streamErrors.push(error),
    complete: () => {
      log.completed.events = true
    },
  })
  agent.transcript$.subscribe({
    next: (event) => {
      settleHeld()
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
