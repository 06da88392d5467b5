import type { AgentMessageId } from '../contracts/messages.js'
import type { Turn } from './activity.js'
import { budgetStops, continueTurn } from './budget.js'
import { noteRequest } from './compaction.js'
import { drainOutbox } from './outbox.js'
import type { OutboxEntry } from './outboxEntry.js'
import { withTurn } from './records.js'
import type { Reduction } from './reduction.js'
import { requestUsage } from './requestUsage.js'
import { closeTurn } from './turnEnd.js'

const BUDGET = Object.freeze({ kind: 'budget' as const })

/**
 * The turn whose model request is streaming now, when no cancel hit it (nor is on its way: the
 * clear of a requested cancel is posted, R25) and no `finish` came.
 */
const streamingTurn = (r: Reduction): Turn | undefined => {
  if (r.state.cancelling) return undefined
  const a = r.state.activity
  return a?.kind === 'turn' && !a.abort && a.phase === 'model' && a.stepOpen && !a.draft.finish
    ? a
    : undefined
}

/**
 * R68: an interrupting steer, just staged, cuts the step whose answer streams. The request is
 * aborted at once (its later events name a step that is over, so none is published); what was
 * streamed is kept as an `interrupted` assistant message without the step's tool calls, so no
 * call is left without a result; the drain writes the steer; the next step runs with it. At any
 * other moment the steer is a plain one and this does nothing.
 */
export const cutStep = (r: Reduction, id: AgentMessageId): void => {
  const turn = streamingTurn(r)
  if (!turn) return
  const { step } = turn
  r.effect({ kind: 'cut', activity: turn.id, step })
  r.set({ outbox: r.state.outbox.map((entry) => markCut(entry, id)) })
  const content = turn.draft.content.filter((b) => b.type === 'text' || b.type === 'reasoning')
  // R73: the cut request's usage goes on its message, or on the step's end when it wrote none.
  const usage = requestUsage(turn.draft)
  noteRequest(r, usage)
  if (content.length > 0)
    r.durable({
      type: 'assistant/message',
      data: { turn: turn.turn, step, content, usage, interrupted: true },
    })
  drainOutbox(r, turn.turn)
  r.durable({
    type: 'step/end',
    data:
      content.length > 0
        ? { turn: turn.turn, step, interrupted: true }
        : { turn: turn.turn, step, interrupted: true, usage },
  })
  const ended = withTurn(turn, { stepOpen: false, phase: 'tools' })
  if (budgetStops(r.state)) return closeTurn(r, withTurn(ended, { stop: 'budget' }), BUDGET)
  continueTurn(r, ended, step + 1)
}

const markCut = (entry: OutboxEntry, id: AgentMessageId): OutboxEntry =>
  entry.kind === 'steering' && entry.message.id === id ? { ...entry, cut: true } : entry
