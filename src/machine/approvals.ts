import type { ApprovalDecisionData } from '../contracts/events.js'
import type { AgentMessage, ToolResultBlock } from '../contracts/messages.js'
import type { ApprovalSlot, Turn } from './activity.js'
import { turnAt } from './callRef.js'
import type { Decision, InputOf } from './inputs.js'
import { pause, unpause } from './pause.js'
import { withTurn } from './records.js'
import type { Reduction } from './reduction.js'
import { cancelledResult, errorResult } from './results.js'
import { liveTurn } from './stepStart.js'
import { takeOutcome } from './toolBatch.js'
import { settled } from './toolLive.js'
import { toolsEffect } from './tools.js'

/**
 * R61: the step's `needsApproval` answers are in. Each call that needs approval gets its
 * `approval/request` (model order) and the turn pauses; the other calls run meanwhile. Reaching
 * the pause is a checkpoint (R65).
 */
export const approvalsChecked = (
  r: Reduction,
  { activity, step, needs, failures }: InputOf<'approvals/checked'>,
): void => {
  const turn = liveTurn(r, activity, 'tools', step)
  if (!turn || turn.approvals) return
  for (const error of failures)
    r.live({ type: 'agent/error', agentId: r.state.agentId, turn: turn.turn, step, error })
  const calls = turn.draft.toolCalls
  // A call cancelled while the predicates ran (R71) has its result: it neither waits nor runs.
  const slots: (ApprovalSlot | undefined)[] = calls.map((_, i) =>
    needs[i] === true && !settled(turn, i) ? 'pending' : undefined,
  )
  const run = calls.flatMap((_, i) => (slots[i] === 'pending' || settled(turn, i) ? [] : [i]))
  r.setActivity(withTurn(turn, { approvals: slots }))
  if (slots.includes('pending')) {
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i]
      if (slots[i] !== 'pending' || !call) continue
      const data = {
        turn: turn.turn,
        step,
        callId: call.id,
        index: i,
        name: call.name,
        arguments: call.arguments,
      }
      r.durable({ type: 'approval/request', data })
      r.live({ type: 'agent/approval/requested', agentId: r.state.agentId, ...data })
    }
    pause(r)
  }
  if (run.length > 0) r.effect(toolsEffect(r.state, { activity, turn: turn.turn, step, calls, only: run }))
  if (slots.includes('pending')) {
    timePending(r, withTurn(turn, { approvals: slots }))
    r.effect({ kind: 'persist' })
  }
}

/** `approve(call)` / `deny(call)` (R62): the façade checked that the call at that place is pending. */
export const decide = (r: Reduction, { activity, step, index, ...decision }: InputOf<'decide'>): void => {
  const turn = turnAt(r.state, { activity, step, index }, 'pending')
  if (turn) decideAt(r, turn, index, decision)
}

/** R66: the limit ran out; the call is denied, never approved. */
export const approvalTimeout = (
  r: Reduction,
  { activity, step, index }: InputOf<'approval/timeout'>,
): void => {
  const turn = liveTurn(r, activity, 'tools', step)
  const call = turn?.draft.toolCalls[index]
  if (!turn || !call || turn.approvals?.[index] !== 'pending') return
  decideAt(r, turn, index, { callId: call.id, decision: 'denied', reason: 'timeout', source: SYSTEM })
}

/**
 * R63: a send with `onApproval: 'deny'` denies every approval pending when it is applied, its
 * text as the reason, in the same reduction as the send: a steer staged a moment before is drained
 * with the DENIED results, into one request.
 */
export const denyPending = (r: Reduction, message: AgentMessage): void => {
  const turn = pausedTurn(r)
  if (!turn) return
  const reason = textOf(message)
  for (let i = 0; i < turn.draft.toolCalls.length; i++) {
    const now = pausedTurn(r)
    const call = now?.draft.toolCalls[i]
    if (!now || now.id !== turn.id || !call || now.approvals?.[i] !== 'pending') continue
    decideAt(r, now, i, {
      callId: call.id,
      decision: 'denied',
      reason,
      source: message.source,
      byMessage: message.id,
    })
  }
}

/**
 * A session reopened paused (R65): calls that were decided or needed no approval and have no
 * recorded result run (again, at least once as R52 allows); denied ones get their result; the
 * pending ones are timed again.
 */
export const turnResume = (r: Reduction, { activity, reasons, owed }: InputOf<'turn/resume'>): void => {
  const turn = liveTurn(r, activity, 'tools')
  if (!turn) return
  const calls = turn.draft.toolCalls
  const waits = (i: number) => i >= turn.toolResults && !turn.outcomes?.[i] && !turn.started?.[i]
  const run = (owed ?? []).filter((i) => waits(i) && turn.approvals?.[i] !== 'denied')
  const denied: number[] = []
  for (let i = turn.toolResults; i < calls.length; i++) if (turn.approvals?.[i] === 'denied') denied.push(i)
  if (run.length > 0)
    r.effect(toolsEffect(r.state, { activity, turn: turn.turn, step: turn.step, calls, only: run }))
  timePending(r, turn)
  for (const index of denied) {
    const now = r.state.activity
    const call = calls[index]
    if (now?.kind === 'turn' && now.id === turn.id && call) {
      takeOutcome(r, now, index, { result: deniedResult(call.id, reasons?.[index]), concluded: false })
    }
  }
}

const SYSTEM = Object.freeze({ kind: 'system' })

export const decideAt = (r: Reduction, turn: Turn, index: number, d: Decision): void => {
  const call = turn.draft.toolCalls[index]
  if (!call) return
  r.durable({ type: 'approval/decision', data: decisionData(turn, index, d) })
  const approvals = [...(turn.approvals ?? [])]
  approvals[index] = d.decision
  const next = withTurn(turn, { approvals })
  r.setActivity(next)
  if (!approvals.includes('pending')) unpause(r)
  if (d.decision === 'approved') {
    const { id: activity, step } = turn
    r.effect(
      toolsEffect(r.state, { activity, turn: turn.turn, step, calls: turn.draft.toolCalls, only: [index] }),
    )
  } else {
    const result = d.cancelled ? cancelledResult(call.id, d.reason, true) : deniedResult(call.id, d.reason)
    takeOutcome(r, next, index, { result, concluded: false })
  }
}

const decisionData = (turn: Turn, index: number, d: Decision): ApprovalDecisionData => {
  const data: { -readonly [K in keyof ApprovalDecisionData]: ApprovalDecisionData[K] } = {
    turn: turn.turn,
    step: turn.step,
    callId: d.callId,
    index,
    decision: d.decision,
    source: d.source,
  }
  if (d.reason !== undefined) data.reason = d.reason
  if (d.byMessage !== undefined) data.byMessage = d.byMessage
  if (d.cancelled) data.cancelled = true
  return data
}

const timePending = (r: Reduction, turn: Turn): void => {
  const calls = turn.draft.toolCalls
  for (let index = 0; index < calls.length; index++) {
    const call = calls[index]
    if (call && turn.approvals?.[index] === 'pending')
      r.effect({ kind: 'approval-timer', activity: turn.id, step: turn.step, index, call })
  }
}

/** The running turn when some approval of its step is pending and no cancel hit it. */
const pausedTurn = (r: Reduction): Turn | undefined => {
  const a = r.state.activity
  return a?.kind === 'turn' && !a.abort && a.phase === 'tools' && a.approvals?.includes('pending')
    ? a
    : undefined
}

const textOf = (message: AgentMessage): string =>
  message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n')

export const deniedResult = (toolCallId: string, reason: string | undefined): ToolResultBlock =>
  errorResult(
    toolCallId,
    'DENIED',
    reason
      ? `Denied: the user did not approve this call. Reason: ${reason}`
      : 'Denied: the user did not approve this call.',
  )
