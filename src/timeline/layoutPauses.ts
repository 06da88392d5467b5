import type { SessionEvent } from '../contracts/events.js'
import type { LayoutBuilder } from './builder.js'
import type { TimelineEntry } from './types.js'

/**
 * The approvals lane (R61–R67, R80): a bar per call that needed approval, from its
 * `approval/request` to its `approval/decision` (green approved, red denied or cancelled by
 * `cancelToolCall`), or to its
 * `tool/result` when a cancel aborted it undecided; open while it still waits. A budget pause is a
 * bar from its `budget/pause` to the turn's next step or its end. The step, tool and turn events
 * that close a bar here are laid out on their own lanes as well; the live events of a pause are
 * marks on the status lane, like the other live events, which also shows the paused stretch.
 */
export const layoutPauseDurable = (b: LayoutBuilder, e: SessionEvent, at: number): void => {
  if (e.type === 'approval/request') {
    const { callId, name } = e.data
    const info = { request: e.data, outcome: 'waits for a decision', events: [e] }
    b.start({ key: `approval:${callId}`, lane: 'approvals', at, cls: 'approval', text: `${name}?`, info })
  } else if (e.type === 'approval/decision') {
    const { callId, decision, reason, cancelled } = e.data
    // `cancelToolCall` settled a waiting call (R71): denied, but nobody decided it.
    const outcome = cancelled ? 'cancelled' : decision
    const bar = b.close(`approval:${callId}`, at, { outcome, decision: e.data })
    if (bar) {
      bar.cls = cancelled ? 'approval aborted' : `approval ${decision}`
      bar.text = `${bar.text.replace(/\?$/, '')}: ${outcome}${reason ? ` (${reason})` : ''}`
      ;(b.infoOf(bar).events as unknown[]).push(e)
    } else {
      // A decision whose request the record does not hold (a log cut before it).
      b.mark({
        lane: 'approvals',
        row: 0,
        at,
        cls: `decision ${decision}`,
        text: decision,
        info: { event: e },
      })
    }
  } else if (e.type === 'tool/result') {
    // Still open at its result: a cancel aborted the call undecided (R64).
    const bar = b.close(`approval:${e.data.result.toolCallId}`, at, { outcome: 'aborted undecided' })
    if (bar) bar.cls = 'approval aborted'
  } else if (e.type === 'budget/pause') {
    const { turn, usage, limits } = e.data
    const info = { usage, limits, outcome: 'waits for raiseBudget() or cancel()', events: [e] }
    b.start({ key: `budget:${turn}`, lane: 'approvals', at, cls: 'budget', text: 'over budget', info })
  } else if (e.type === 'step/start' || e.type === 'turn/end') {
    const how = e.type === 'step/start' ? 'raised: the turn went on' : 'the turn ended'
    b.close(`budget:${e.data.turn}`, at, { outcome: how })
  }
}

/** The status lane: a bar while running and one while paused (R61), none while idle. */
export const layoutStatus = (b: LayoutBuilder, status: string, entry: TimelineEntry, at: number): void => {
  b.close('status', at, status === 'idle' ? { idleAt: entry.seq } : { endedAt: entry.seq, next: status })
  if (status === 'idle') return
  const info = { status, events: [entry] }
  b.start({ key: 'status', lane: 'status', at, cls: status, text: status, info, row: 0 })
}
