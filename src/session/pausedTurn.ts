import type { SessionEvent } from '../contracts/events.js'
import type { ContentBlock, ToolCallBlock } from '../contracts/messages.js'

/** A call's approval as the log has it: requested and not decided, or decided. */
export type LoggedApproval = 'pending' | 'approved' | 'denied'

/**
 * The last turn of a log when it stopped paused (R65): waiting on approvals (requests without
 * decisions in its open step) or on its budget (a `budget/pause` after its last step). Such a
 * turn is restored paused, not closed as interrupted.
 */
export type PausedTurn = {
  readonly turn: number
  readonly step: number
  readonly reason: 'approval' | 'budget'
  /** The open step's `assistant/message` content and its calls (approval pauses). */
  readonly content: readonly ContentBlock[]
  readonly calls: readonly ToolCallBlock[]
  /** How many of the calls have their result in the log (a prefix, in model order, R21). */
  readonly recorded: number
  readonly approvals: readonly (LoggedApproval | undefined)[]
  /** Each denial's reason, by call index: the DENIED result written after the reopen carries it (R62). */
  readonly reasons: readonly (string | undefined)[]
}

type Scan = {
  turn?: number | undefined
  step?: number | undefined
  stepOpen: boolean
  budget: boolean
  content: readonly ContentBlock[]
  /** By the call's place in the step: the model may give two calls one id (V9). */
  requests: (LoggedApproval | undefined)[]
  reasons: (string | undefined)[]
  recorded: number
}

const fresh = (scan: Scan): void => {
  scan.content = []
  scan.requests = []
  scan.reasons = []
  scan.recorded = 0
  scan.budget = false
}

const callsOf = (content: readonly ContentBlock[]): ToolCallBlock[] =>
  content.filter((b): b is ToolCallBlock => b.type === 'tool-call')

/**
 * The place of the call an `approval/request` or `approval/decision` is about: its `index`, or,
 * in a log written before events held it, the first call with that id in the state `slot` asks.
 */
const placeOf = (
  scan: Scan,
  data: { readonly callId: string; readonly index?: number },
  slot: (s: LoggedApproval | undefined) => boolean,
): number => {
  if (data.index !== undefined) return data.index
  return callsOf(scan.content).findIndex((call, i) => call.id === data.callId && slot(scan.requests[i]))
}

/** Reads the log once, from the start. Pure. */
export const findPausedTurn = (history: readonly SessionEvent[]): PausedTurn | undefined => {
  const scan: Scan = {
    stepOpen: false,
    budget: false,
    content: [],
    requests: [],
    reasons: [],
    recorded: 0,
  }
  for (const event of history) {
    switch (event.type) {
      case 'turn/start':
        scan.turn = event.data.turn
        fresh(scan)
        break
      case 'turn/end':
        scan.turn = undefined
        break
      case 'step/start':
        scan.step = event.data.step
        scan.stepOpen = true
        fresh(scan)
        break
      case 'step/end':
        scan.stepOpen = false
        break
      case 'assistant/message':
        scan.content = event.data.content
        break
      case 'approval/request': {
        const at = placeOf(scan, event.data, (slot) => slot === undefined)
        if (at >= 0) scan.requests[at] = 'pending'
        break
      }
      case 'approval/decision': {
        const at = placeOf(scan, event.data, (slot) => slot === 'pending')
        if (at < 0 || scan.requests[at] === undefined) break
        scan.requests[at] = event.data.decision
        if (event.data.reason !== undefined) scan.reasons[at] = event.data.reason
        break
      }
      case 'tool/result':
        scan.recorded++
        break
      case 'budget/pause':
        // Step 0 when the turn paused before its first request (R80).
        scan.step = event.data.step
        scan.budget = true
        break
    }
  }
  if (scan.turn === undefined || scan.step === undefined) return undefined
  const calls = callsOf(scan.content)
  const base = { turn: scan.turn, step: scan.step, content: scan.content, calls, recorded: scan.recorded }
  if (!scan.stepOpen && scan.budget) return { ...base, reason: 'budget', approvals: [], reasons: [] }
  const approvals = calls.map((_, i) => scan.requests[i])
  const waits = approvals.some((slot, i) => slot === 'pending' && i >= scan.recorded)
  const reasons = calls.map((_, i) => scan.reasons[i])
  return scan.stepOpen && waits ? { ...base, reason: 'approval', approvals, reasons } : undefined
}
