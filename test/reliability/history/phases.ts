/** The compaction phases of a run, as the timeline shows them (R74). */
import type { CompactionEndEvent } from '../../../src/contracts/events.js'
import type { SessionEvent } from '../../../src/index.js'
import type { Log } from '../log.js'
import type { SummaryCall } from './log.js'

export type Phase = {
  /** Timeline positions of `agent/compaction/start` and `agent/compaction/end` (-1: none). */
  readonly start: number
  end: number
  /** How long the durable log was when it started: the boundary it summarises up to. */
  readonly durableAtStart: number
  /** Durable events appended between its start and its end, with their timeline positions. */
  readonly appended: { readonly e: SessionEvent; readonly at: number }[]
  result?: CompactionEndEvent['result']
  /** The summariser calls made during the phase (at most one). */
  readonly summaries: SummaryCall[]
}

/**
 * Whether a compaction runs at timeline `position` (R74): the window is open for no turn. A
 * subscriber of the `running` that opens a compaction sees it before its `compaction/start`,
 * which the same reduction published: known once the run is, when that start comes next.
 */
export const compacting = (log: Log, position: number): boolean => {
  const before = log.timeline[position - 1]
  const next = log.timeline[position]
  if (before && 'live' in before && before.live.type === 'agent/status' && before.live.status === 'running')
    return next !== undefined && 'live' in next && next.live.type === 'agent/compaction/start'
  for (let i = position - 1; i >= 0; i--) {
    const x = log.timeline[i]
    if (!x || !('live' in x)) continue
    if (x.live.type === 'agent/compaction/end') return false
    if (x.live.type === 'agent/compaction/start') return true
  }
  return false
}

export const phasesOf = (log: Log): Phase[] => {
  const phases: Phase[] = []
  let open: Phase | undefined
  let durable = 0
  log.timeline.forEach((x, at) => {
    if ('durable' in x) {
      durable++
      open?.appended.push({ e: x.durable, at })
      return
    }
    if (x.live.type === 'agent/compaction/start') {
      open = { start: at, end: -1, durableAtStart: durable, appended: [], summaries: [] }
      phases.push(open)
    } else if (x.live.type === 'agent/compaction/end' && open) {
      open.end = at
      open.result = x.live.result
      open = undefined
    }
  })
  for (const s of log.history.summaries) {
    const phase = phases.find((p) => p.start < s.position && (p.end < 0 || s.position <= p.end))
    phase?.summaries.push(s)
  }
  return phases
}
