/** Reentrant subscribers: each reaction of the schedule fires once, on the nth event of its kind. */
import type { Agent, AgentEvent, SessionEvent } from '../../src/index.js'
import type { Origin } from './log.js'
import type { Op, ReactionOn, Schedule } from './schedule.js'

type Call = (op: Op, text: string, origin: Origin, on?: ReactionOn) => void

export const liveKey = (e: AgentEvent): ReactionOn | undefined => {
  switch (e.type) {
    case 'agent/status':
      return e.status === 'paused' ? undefined : e.status
    case 'agent/inbox/enqueue':
      return 'enqueue'
    case 'agent/inbox/dequeue':
      return 'dequeue'
    case 'agent/inbox/discard':
      return 'discard'
    case 'agent/inbox/replace':
      return 'replace'
    case 'agent/inbox/reorder':
      return 'reorder'
    case 'agent/cancel-requested':
      return 'cancel-requested'
    case 'agent/settled':
      return 'settled'
    case 'agent/error':
      return 'error'
    case 'agent/tool/start':
      return 'tool-start'
    case 'agent/stream/delta':
      return 'delta'
    case 'agent/compaction/start':
      return 'compaction-start'
    case 'agent/compaction/end':
      return 'compaction-end'
    default:
      return undefined
  }
}

/** Subscribes the reactions of `schedule`; returns how many have fired so far. */
export const subscribeReactions = (agent: Agent, schedule: Schedule, call: Call): (() => number) => {
  const seen = new Map<ReactionOn, number>()
  let fired = 0
  const react = (key: ReactionOn | undefined): void => {
    if (key === undefined) return
    const n = (seen.get(key) ?? 0) + 1
    seen.set(key, n)
    schedule.plan.reactions.forEach((r, i) => {
      if (r.on !== key || r.nth !== n) return
      fired++
      call(r.op, schedule.reactionText(i, r.op), 'reaction', key)
    })
  }
  agent.events$.subscribe((event) => react(liveKey(event)))
  agent.transcript$.subscribe((event: SessionEvent) => react(event.type as ReactionOn))

  return () => fired
}
