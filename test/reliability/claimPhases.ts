/**
 * Where a claim stands at each point of the timeline, for the bound (R48): from a claim's
 * `running` until its `dequeue`, the queue's head is being dequeued and does not count as waiting
 * (R41, R43). A claim whose `running` no reaction saw (one that follows a turn at once) dequeues
 * before any subscriber runs, so it is never seen in that state.
 */
import { InboxFold } from './fold.js'
import type { Log } from './log.js'

/**
 * The claim in progress after each timeline entry: none; opening (its head not dequeued yet); or
 * opening but cancelled before its dequeue, with whether the head it was claiming still waits.
 */
export type ClaimPhase =
  | { readonly kind: 'none' }
  | { readonly kind: 'opening' }
  | { readonly kind: 'aborted'; readonly headWaits: boolean }

const NONE: ClaimPhase = { kind: 'none' }

export const claimPhases = (log: Log): ClaimPhase[] => {
  const fold = new InboxFold(log)
  const phases: ClaimPhase[] = []
  let phase: ClaimPhase = NONE
  let head: string | undefined
  let paused = false
  log.timeline.forEach((entry, at) => {
    if ('durable' in entry) {
      if (entry.durable.type === 'turn/start') phase = NONE
    } else {
      const e = entry.live
      fold.apply(e)
      if (e.type === 'agent/status') {
        // A retry while idle publishes `running` and opens its turn in the same breath (R24).
        const next = log.timeline[at + 1]
        const retry = next && 'durable' in next && next.durable.type === 'turn/start'
        // A compaction opens the window with `running` too, and claims nothing (R74).
        const compaction = next && 'live' in next && next.live.type === 'agent/compaction/start'
        // `running` after `paused` resumes the paused turn (R80: raiseBudget, or its cancel).
        const resumed = paused
        paused = e.status === 'paused'
        phase = e.status === 'running' && !retry && !compaction && !resumed ? { kind: 'opening' } : NONE
        head = fold.queue[0]?.message.id
      } else if (e.type === 'agent/compaction/start' || e.type === 'agent/compaction/end') phase = NONE
      else if (e.type === 'agent/cancel-requested' && phase.kind !== 'none')
        phase = { kind: 'aborted', headWaits: true }
      else if (e.type === 'agent/inbox/dequeue' && phase.kind === 'opening') {
        const next = log.timeline[at + 1]
        const promote =
          next &&
          'live' in next &&
          next.live.type === 'agent/inbox/enqueue' &&
          next.live.message.id === e.message.id
        if (!promote) phase = NONE
      }
      if (phase.kind === 'aborted')
        phase = { kind: 'aborted', headWaits: head !== undefined && fold.waiting(head) === 'queue' }
    }
    phases.push(phase)
  })
  return phases
}
