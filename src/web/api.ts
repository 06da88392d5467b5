import type { Agent, DecisionOptions } from '../contracts/agent.js'
import { ApprovalNotPendingError } from '../contracts/errors.js'
import type { AgentMessageId } from '../contracts/messages.js'

/** A command from the page, as JSON: what the agent's methods take. */
type Body = {
  readonly text?: unknown
  readonly id?: unknown
  readonly index?: unknown
  readonly keepInbox?: unknown
  readonly callId?: unknown
  readonly reason?: unknown
  readonly interrupt?: unknown
}

const text = (body: Body): string => {
  if (typeof body.text !== 'string' || body.text.trim() === '')
    throw new TypeError('expected a non-empty "text"')
  return body.text
}
const id = (body: Body): AgentMessageId => {
  if (typeof body.id !== 'string') throw new TypeError('expected the item\'s "id"')
  return body.id as AgentMessageId
}

const callId = (body: Body): string => {
  if (typeof body.callId !== 'string' || body.callId === '')
    throw new TypeError('expected the "callId" of a pending tool call (the approvals event lists them)')
  return body.callId
}
const runningCallId = (body: Body): string => {
  if (typeof body.callId !== 'string' || body.callId === '')
    throw new TypeError('expected the "callId" of a running tool call (its agent/tool/start entry names it)')
  return body.callId
}
/** A blank reason is none: the page sends its reason box as it is. */
const reasonOption = (body: Body): DecisionOptions => {
  if (body.reason !== undefined && typeof body.reason !== 'string')
    throw new TypeError('expected "reason" to be a string, or no "reason"')
  return typeof body.reason === 'string' && body.reason.trim() !== '' ? { reason: body.reason } : {}
}
/** `steer`'s options: `interrupt` cuts the answer being streamed (R68); absent or false, a plain steer. */
const steerOptions = (body: Body): { interrupt?: true } => {
  if (body.interrupt !== undefined && typeof body.interrupt !== 'boolean')
    throw new TypeError('expected "interrupt" to be true or false, or no "interrupt"')
  return body.interrupt === true ? { interrupt: true } : {}
}

/**
 * The status for a refused command: 409 when the call it decides is not pending (mostly decided
 * already, by another page or a timeout: the body was well formed, the state is what refused it),
 * else 400.
 */
export const refusedStatus = (error: unknown): 400 | 409 =>
  error instanceof ApprovalNotPendingError ? 409 : 400

/** What a command answers: a new message's id, or whether `cancel-tool` cancelled the call. */
export type CommandAnswer = { readonly id?: string; readonly cancelled?: boolean }

/**
 * The page's commands, each one call of the agent's public API: `followup`, `steer` (`{text,
 * interrupt?}`, R68), `inject`, `remove`, `replace`, `move`, `promote`, `cancel`, `approve` and
 * `deny` (`{callId, reason?}`, R67), and `cancel-tool` (`{callId, reason?}`, R71). Returns what
 * the page gets back; a bad body or a refused call throws, and the server answers with
 * `refusedStatus` and its message. Each field is checked before the agent is called, so a bad
 * body changes nothing.
 *
 * `cancel-tool` answers `{cancelled}` as `cancelToolCall` returns it: a call that ended just
 * before the click is a race the page expects, not a refusal (docs/decisions.md).
 */
export const runCommand = (agent: Agent, command: string, body: Body): CommandAnswer => {
  switch (command) {
    case 'followup':
      return { id: agent.followup(text(body)) }
    case 'steer': {
      const options = steerOptions(body)
      return { id: agent.steer(text(body), options) }
    }
    case 'inject':
      return { id: agent.inject(text(body)) }
    case 'remove':
      agent.remove(id(body))
      return {}
    case 'replace':
      agent.replace(id(body), text(body))
      return {}
    case 'move':
      if (typeof body.index !== 'number') throw new TypeError('expected a numeric "index"')
      agent.move(id(body), body.index)
      return {}
    case 'promote':
      agent.promote(id(body))
      return {}
    case 'cancel':
      agent.cancel({ kind: 'user' }, { keepInbox: body.keepInbox === true })
      return {}
    case 'approve':
      agent.approve(callId(body), reasonOption(body))
      return {}
    case 'deny':
      agent.deny(callId(body), reasonOption(body))
      return {}
    case 'cancel-tool': {
      const id = runningCallId(body)
      return { cancelled: agent.cancelToolCall(id, reasonOption(body)) }
    }
    default:
      throw new TypeError(`unknown command "${command}"`)
  }
}
