import type { TimelineEntry } from '../../timeline/types.js'

/** A tool call whose `execute` runs now: what the page lists with a Cancel button (R71, R72). */
export type RunningTool = {
  readonly callId: string
  readonly name: string
  readonly turn: number
  readonly step: number
  /** When it started, on the server's clock (its entry's `t`), if the record kept one. */
  readonly startedAt?: number
}

/**
 * The calls that run after `entries`, in the order they started: each `agent/tool/start` without
 * its `agent/tool/end` yet. A call's turn ending drops it too: every dispatched call gets its end
 * before its turn does, so this only matters for a record cut short (a dispose mid-call), where
 * a Cancel button could not cancel anything anyway.
 */
export const runningTools = (entries: readonly TimelineEntry[]): RunningTool[] => {
  const running = new Map<string, RunningTool>()
  for (const entry of entries) {
    if (entry.stream === 'events' && entry.event.type === 'agent/tool/start') {
      const { callId, name, turn, step } = entry.event
      const startedAt = entry.t === undefined ? {} : { startedAt: entry.t }
      running.set(callId, { callId, name, turn, step, ...startedAt })
    } else if (entry.stream === 'events' && entry.event.type === 'agent/tool/end')
      running.delete(entry.event.callId)
    else if (entry.stream === 'transcript' && entry.event.type === 'turn/end') {
      const ended = entry.event.data.turn
      for (const [id, tool] of running) if (tool.turn === ended) running.delete(id)
    }
  }
  return [...running.values()]
}
