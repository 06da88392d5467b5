import type { AgentEvent, SessionEvent } from '../../../src/index.js'
import { ApprovalNotPendingError } from '../../../src/index.js'
import { act, type Calls } from './act.js'
import type { ReactionOn } from './plan.js'
import type { Process, Run } from './process.js'

const liveKind = (e: AgentEvent): ReactionOn | undefined =>
  e.type === 'agent/approval/requested'
    ? 'requested'
    : e.type === 'agent/status' && e.status === 'paused'
      ? 'paused'
      : e.type === 'agent/inbox/enqueue'
        ? 'enqueue'
        : undefined
const durableKind = (e: SessionEvent): ReactionOn | undefined =>
  e.type === 'tool/result' || e.type === 'step/end' || e.type === 'turn/end' ? e.type : undefined

/**
 * The plan's subscribers, on one process: each calls its op while the `nth` event of its kind is
 * delivered, so the call waits in the trampoline. Refusals a reentrant call may meet (a decision
 * made ahead of it, a disposed agent) are expected; anything else is a problem.
 */
export const subscribeReactions = (run: Run, calls: Calls, p: Process): void => {
  const seen = new Map<ReactionOn, number>()
  const on = (kind: ReactionOn | undefined) => {
    if (kind === undefined) return
    const n = (seen.get(kind) ?? 0) + 1
    seen.set(kind, n)
    for (const r of run.plan.reactions) {
      if (r.on !== kind || r.nth !== n) continue
      run.reacted++
      try {
        act(run, calls, p, r.op, false)
      } catch (error) {
        const name = (error as { name?: string } | null)?.name
        if (!(error instanceof ApprovalNotPendingError) && name !== 'AgentDisposedError')
          run.problems.push(`a reaction on ${kind} threw ${String(error)}`)
      }
    }
  }
  p.agent.events$.subscribe((e) => on(liveKind(e)))
  // transcript$ replays the session first: only what this process appends counts.
  const from = p.agent.session.events.length
  p.agent.transcript$.subscribe((e) => on(e.seq > from ? durableKind(e) : undefined))
}
