import type { Agent } from '../contracts/agent.js'
import type { AgentMessageId } from '../contracts/messages.js'

/** A command from the page, as JSON: what the agent's methods take. */
type Body = {
  readonly text?: unknown
  readonly id?: unknown
  readonly index?: unknown
  readonly keepInbox?: unknown
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

/**
 * The page's commands, each one call of the agent's public API: `followup`, `steer`, `inject`,
 * `remove`, `replace`, `move`, `promote`, `cancel`. Returns what the page gets back (a new
 * message's id); a bad body or a refused call throws, and the server answers 400 with its message.
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
    default:
      throw new TypeError(`unknown command "${command}"`)
  }
}
