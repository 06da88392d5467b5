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
/** A blank reason is none: the page sends its reason box as it is. */
const decision = (body: Body): DecisionOptions => {
  if (body.reason !== undefined && typeof body.reason !== 'string')
    throw new TypeError('expected "reason" to be a string, or no "reason"')
  return typeof body.reason === 'string' && body.reason.trim() !== '' ? { reason: body.reason } : {}
}

/**
 * The status for a refused command: 409 when the call it decides is not pending (mostly decided
 * already, by another page or a timeout: the body was well formed, the state is what refused it),
 * else 400.
 */
export const refusedStatus = (error: unknown): 400 | 409 =>
  error instanceof ApprovalNotPendingError ? 409 : 400

/**
 * The page's commands, each one call of the agent's public API: `followup`, `steer`, `inject`,
 * `remove`, `replace`, `move`, `promote`, `cancel`, and `approve` and `deny` (`{callId, reason?}`,
 * R67). Returns what the page gets back (a new message's id); a bad body or a refused call throws,
 * and the server answers with `refusedStatus` and its message.
 */
export const runCommand = (agent: Agent, command: string, body: Body): { id?: string } => {
  switch (command) {
    case 'followup':
      return { id: agent.followup(text(body)) }
    case 'steer':
      return { id: agent.steer(text(body)) }
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
      agent.approve(callId(body), decision(body))
      return {}
    case 'deny':
      agent.deny(callId(body), decision(body))
      return {}
    default:
      throw new TypeError(`unknown command "${command}"`)
  }
}
