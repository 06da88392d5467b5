/**
 * The calls of an approvals run, made on one process's agent: from the script (top level, where
 * each call's effect is checked at once, since the trampoline has drained when it returns) or
 * from a subscriber (where calls wait in the trampoline: what they throw is judged there, and
 * whether an accepted decision was applied at the end, checks.ts).
 */
import {
  type Agent,
  type AgentMessageId,
  ApprovalNotPendingError,
  InvalidInputError,
  type Outcome,
  type PendingApproval,
} from '../../../src/index.js'
import { decisionKey, kOf } from './pendingInLog.js'
import type { DecideOp, Op, SendOp } from './plan.js'
import type { Process, Run } from './process.js'

export type Sent = { readonly process: number; readonly text: string }

/** What the calls of a run returned and what their outcomes said in their own process. */
export type Calls = {
  readonly sent: Map<AgentMessageId, Sent>
  readonly settledIn: Map<AgentMessageId, { readonly process: number; readonly outcome: Outcome }>
  count: number
}

export const newCalls = (): Calls => ({ sent: new Map(), settledIn: new Map(), count: 0 })

/** The pending calls by key: the model's ids may repeat in a step, or be empty. */
const pendingKeys = (agent: Agent) => agent.approvals.map((a) => a.key)

/** The decision this process wrote for the call `key` (at most one: checked at the end of the run). */
const decisionOf = (p: Process, key: string) =>
  p.durable.find((e) => e.type === 'approval/decision' && decisionKey(e.data) === key)

const send = (run: Run, calls: Calls, p: Process, op: SendOp, topLevel: boolean): void => {
  const agent = p.agent
  const before = pendingKeys(agent)
  const reacted = run.reacted
  const text = `${op.kind[0]}${++calls.count}`
  const options = op.onApproval === undefined ? undefined : { onApproval: op.onApproval }
  const id =
    op.kind === 'followup'
      ? agent.followup(text, options)
      : op.kind === 'steer'
        ? agent.steer(text, options)
        : agent.inject(text, options)
  calls.sent.set(id, { process: p.index, text })
  agent.outcome(id).then(
    (outcome) => calls.settledIn.set(id, { process: p.index, outcome }),
    (error: unknown) =>
      run.problems.push(`R42: outcome(${text}) rejected in its own process: ${String(error)}`),
  )
  // A subscriber may decide in the same call (after the send): then the send is not judged alone.
  if (!topLevel || before.length === 0 || run.reacted !== reacted) return
  if (op.onApproval !== 'deny') {
    const after = pendingKeys(agent)
    if (after.join() !== before.join())
      run.problems.push(
        `R63: ${text} with onApproval '${op.onApproval ?? 'hold'}' changed [${before}] to [${after}]`,
      )
    return
  }
  for (const key of before) {
    const d = decisionOf(p, key)
    if (
      d?.type !== 'approval/decision' ||
      d.data.decision !== 'denied' ||
      d.data.byMessage !== id ||
      d.data.reason !== text
    )
      run.problems.push(`R63: ${text} with onApproval 'deny' did not deny ${key} with its text and id`)
  }
}

const decide = (run: Run, p: Process, op: DecideOp, topLevel: boolean): void => {
  const agent = p.agent
  const pending = agent.approvals
  const call = (callId: string) =>
    op.kind === 'approve'
      ? agent.approve(callId, op.reason ? { reason: 'fine' } : undefined)
      : agent.deny(callId, op.reason ? { reason: 'no way' } : undefined)
  if (op.stale) {
    const decided = p.agent.session.events.flatMap((e) =>
      e.type === 'approval/decision' ? [decisionKey(e.data)] : [],
    )
    const callId = decided[op.pick % Math.max(1, decided.length)] ?? 'never-asked'
    if (pendingKeys(agent).includes(callId)) return
    const seen = agent.session.events.length
    try {
      call(callId)
      run.problems.push(`R62: ${op.kind}(${callId}) of a call that is not pending did not throw`)
    } catch (error) {
      if (!(error instanceof ApprovalNotPendingError))
        run.problems.push(`R62: ${op.kind}(${callId}) threw ${String(error)}, not ApprovalNotPendingError`)
    }
    if (agent.session.events.length !== seen)
      run.problems.push(`R62: a refused ${op.kind}(${callId}) wrote events`)
    return
  }
  const target = pending[op.pick % Math.max(1, pending.length)]
  if (target === undefined) return
  const { key } = target
  // By key, or (odd picks) by the model's id, which names the call only when no other pending one has it.
  // While a step's requests are delivered one by one, a call may be pending before it is listed:
  // an id shared in the step may be refused as ambiguous even when the list shows it once.
  const byId = op.pick % 2 === 1
  const shared = pending.filter((a) => a.callId === target.callId).length > 1
  if (byId && !decidedById(run, p, op, target, call, shared)) return
  if (!byId) call(key)
  // Accepted, it decides: from a subscriber once the delivery is out, at top level before it returns.
  const expected = op.kind === 'approve' ? 'approved' : 'denied'
  p.accepted.push({ key, k: kOf(target.arguments), decision: expected })
  if (!topLevel) return
  const d = decisionOf(p, key)
  if (d?.type !== 'approval/decision' || d.data.decision !== expected || d.data.source.kind !== 'user')
    run.problems.push(`R62: ${op.kind}(${key}) wrote no ${expected} decision by the user`)
  if (pendingKeys(agent).includes(key)) run.problems.push(`R62: ${key} still pending after ${op.kind}`)
}

/**
 * A decision by the model's id: it decides the call when no other pending call has that id, and
 * is otherwise `InvalidInputError` naming the keys, which changes nothing. Whether it decided.
 */
const decidedById = (
  run: Run,
  p: Process,
  op: DecideOp,
  target: PendingApproval,
  call: (ref: string) => void,
  shared: boolean,
): boolean => {
  const seen = p.agent.session.events.length
  const events = p.agent.session.events
  let sameId = 0
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]
    if (e?.type !== 'assistant/message') continue
    sameId = e.data.content.filter((b) => b.type === 'tool-call' && b.id === target.callId).length
    break
  }
  try {
    call(target.callId)
  } catch (error) {
    // Refused for another reason (a cancel ahead in a subscriber's delivery): the caller judges it.
    if (!(error instanceof InvalidInputError)) throw error
    if (!error.message.includes(target.key) || sameId < 2)
      run.problems.push(`R62: ${op.kind}(${JSON.stringify(target.callId)}) threw ${String(error)}`)
    if (p.agent.session.events.length !== seen) run.problems.push(`R62: an ambiguous ${op.kind} wrote events`)
    return false
  }
  if (shared)
    run.problems.push(`R62: ${op.kind}(${JSON.stringify(target.callId)}) of a shared id did not throw`)
  return true
}

/** Calls `op` on process `p` (never a restart: the run does those). */
export const act = (
  run: Run,
  calls: Calls,
  p: Process,
  op: Exclude<Op, { kind: 'restart' }>,
  topLevel: boolean,
) => {
  switch (op.kind) {
    case 'approve':
    case 'deny':
      return decide(run, p, op, topLevel)
    case 'promote': {
      const queue = p.agent.inbox.queue
      const item = queue[op.pick % Math.max(1, queue.length)]
      if (item !== undefined) p.agent.promote(item.message.id)
      return
    }
    case 'cancel':
      return p.agent.cancel({ kind: 'user' }, { keepInbox: op.keepInbox })
    default:
      return send(run, calls, p, op, topLevel)
  }
}
