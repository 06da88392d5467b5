import type { Agent } from '../contracts/agent.js'
import type { AgentMessageId } from '../contracts/messages.js'
import { errorText } from '../messages/errorText.js'
import { type ApprovalAnswer, answerApproval, parseAnswer } from './approvalPrompt.js'
import { COMPACT_HELP, compactionLine } from './compactCommand.js'
import { inboxLines, itemNumbered } from './inboxList.js'
import type { RunningTools } from './runningTools.js'

/** What one line of input asks for. */
export type Command =
  | { readonly kind: 'say'; readonly text: string }
  | { readonly kind: 'queue' | 'steer' | 'inject'; readonly text: string }
  /** `!text`: a steer that cuts the answer being streamed (R68). */
  | { readonly kind: 'interrupt'; readonly text: string }
  /** `/cancel-tool N` or `/cancel-tool ID`: cancel one running tool call (R71). */
  | { readonly kind: 'cancel-tool'; readonly callId: string }
  | { readonly kind: 'cancel'; readonly keepInbox: boolean }
  | { readonly kind: 'promote' | 'drop'; readonly n: number }
  | { readonly kind: 'move'; readonly n: number; readonly to: number }
  /** A decision on the pending approval of tool call `callId` (R67). */
  | { readonly kind: 'approve'; readonly callId: string }
  | { readonly kind: 'deny'; readonly callId: string; readonly reason?: string }
  /** `/rollback [N]`: undo the last N turns of the conversation, 1 by default (R77). */
  | { readonly kind: 'rollback'; readonly turns: number }
  /** `/compact [N]`: summarise the conversation before the last N turns (R74). */
  | { readonly kind: 'compact'; readonly keepLastTurns?: number }
  | { readonly kind: 'quit' | 'help' | 'inbox' | 'empty' }
  | { readonly kind: 'unknown'; readonly text: string }
  | { readonly kind: 'usage'; readonly text: string }
  | ApprovalAnswer

/** The commands, for `/help` in both modes. */
export const COMMANDS_HELP =
  '/queue text · /steer text · !text (steer and cut the answer being written) · /inject text · /cancel [keep] · /cancel-tool N|ID · /inbox · /promote N · /drop N · /move N M · /approve ID · /deny ID [reason] · /rollback [N] · /compact [N] · /quit'
/** What the numbers mean, for `/help`. */
export const NUMBERS_HELP =
  'N is the number of a waiting item as /inbox lists it: the queue first (the order it runs in), then staged steering and context. /promote N steers queued item N into the running turn (or runs it next while idle); /move N M makes it item M.'

/** What `/rollback` does, for `/help`. */
export const HISTORY_HELP =
  '/rollback N undoes the last N turns of the conversation (1 without N) while idle: the model no longer sees them; the log keeps them, and turn numbers go on.'

/** How a pending approval is answered, for `/help`. */
export const APPROVAL_HELP =
  'When a tool call waits for your approval (status paused): y approves it, n denies it, n <reason> denies it and tells the model why; other text steers, and waits for the decision.'

const number = (word: string | undefined): number | undefined =>
  word !== undefined && /^\d+$/.test(word) ? Number(word) : undefined

/**
 * `/queue text` (or `/followup text`), `/steer text`, `/inject text`, `/cancel [keep]`, `/inbox`,
 * `/promote N`, `/drop N`, `/move N M`, `/approve ID`, `/deny ID [reason]`, `/rollback [N]`,
 * `/compact [N]`, `/quit`, `/help`, or
 * plain text. While a call waits for approval (`approving`), `y`, `n` and `n <reason>` answer it.
 */
export const parseCommand = (line: string, approving = false): Command => {
  const trimmed = line.trim()
  if (trimmed === '') return { kind: 'empty' }
  const answer = approving ? parseAnswer(trimmed) : undefined
  if (answer) return answer
  if (trimmed.startsWith('!') && trimmed.length > 1)
    return { kind: 'interrupt', text: trimmed.slice(1).trim() }
  if (!trimmed.startsWith('/')) return { kind: 'say', text: trimmed }
  const [name = '', ...rest] = trimmed.slice(1).split(/\s+/)
  const text = rest.join(' ')
  const [n, to] = [number(rest[0]), number(rest[1])]
  switch (name) {
    case 'queue':
    case 'steer':
    case 'inject':
      return text ? { kind: name, text } : { kind: 'unknown', text: trimmed }
    case 'followup':
      return text ? { kind: 'queue', text } : { kind: 'unknown', text: trimmed }
    case 'cancel':
      return { kind: 'cancel', keepInbox: text === 'keep' }
    case 'promote':
    case 'drop':
      return n !== undefined && rest.length === 1
        ? { kind: name, n }
        : { kind: 'usage', text: `usage: /${name} N (N from /inbox)` }
    case 'move':
      return n !== undefined && to !== undefined && rest.length === 2
        ? { kind: 'move', n, to }
        : { kind: 'usage', text: 'usage: /move N M (queued item N becomes item M; N and M from /inbox)' }
    case 'cancel-tool':
      return rest.length === 1 && rest[0]
        ? { kind: 'cancel-tool', callId: rest[0] }
        : {
            kind: 'usage',
            text: 'usage: /cancel-tool N|ID (a running tool call: its number in the list, or its id)',
          }
    case 'rollback':
      return rest.length === 0
        ? { kind: 'rollback', turns: 1 }
        : n !== undefined && rest.length === 1
          ? { kind: 'rollback', turns: n }
          : { kind: 'usage', text: 'usage: /rollback [N] (undo the last N turns, 1 without N)' }
    case 'compact':
      return rest.length === 0
        ? { kind: 'compact' }
        : n !== undefined && rest.length === 1
          ? { kind: 'compact', keepLastTurns: n }
          : { kind: 'usage', text: 'usage: /compact [N] (summarise all but the last N turns)' }
    case 'approve':
      return rest.length === 1 && rest[0]
        ? { kind: 'approve', callId: rest[0] }
        : { kind: 'usage', text: 'usage: /approve ID (the id of a call that waits for approval)' }
    case 'deny': {
      const [callId, ...words] = rest
      if (!callId) return { kind: 'usage', text: 'usage: /deny ID [reason] (the id of a call that waits)' }
      const reason = words.join(' ')
      return reason ? { kind: 'deny', callId, reason } : { kind: 'deny', callId }
    }
    case 'inbox':
      return { kind: 'inbox' }
    case 'quit':
    case 'exit':
      return { kind: 'quit' }
    case 'help':
      return { kind: 'help' }
    default:
      return { kind: 'unknown', text: trimmed }
  }
}

/**
 * What running a command did: lines to show, the message it sent (for its receipt), and for a
 * command that ends later (`/compact`), the line to show when it has.
 */
export type CommandResult = {
  readonly lines: readonly string[]
  readonly sent?: { readonly id: AgentMessageId; readonly text: string }
  readonly later?: Promise<string | undefined>
}

const say = (...lines: string[]): CommandResult => ({ lines })

/** Acts on waiting item `n` when it is in the queue; otherwise says why not. */
const onQueued = (agent: Agent, n: number, act: (id: AgentMessageId) => void): CommandResult => {
  const item = itemNumbered(agent.inbox, n)
  if (typeof item === 'string') return say(item)
  if (item.placement !== 'queued' && item.placement !== 'parked')
    return say(`item ${n} is already staged (${item.placement}); only queued items can be promoted or moved`)
  act(item.message.id)
  return say()
}

/** What the app knows beyond the agent: the running tool calls it lists, when it lists them. */
export type CommandContext = { readonly running?: RunningTools }

const run = (agent: Agent, command: Command, context: CommandContext): CommandResult => {
  switch (command.kind) {
    case 'say':
    case 'steer':
      return { lines: [], sent: { id: agent.steer(command.text), text: command.text } }
    case 'interrupt': {
      const id = agent.steer(command.text, { interrupt: true })
      return { lines: [], sent: { id, text: command.text } }
    }
    case 'cancel-tool': {
      const callId = context.running?.callId(command.callId) ?? command.callId
      return agent.cancelToolCall(callId)
        ? say()
        : say(`no running tool call ${command.callId} (it finished, or the number or id is wrong)`)
    }
    case 'queue':
      return { lines: [], sent: { id: agent.followup(command.text), text: command.text } }
    case 'inject': {
      const source = { kind: 'plugin', plugin: 'cli' } as const
      const id = agent.inject({ content: [{ type: 'text', text: command.text }], source })
      return { lines: [], sent: { id, text: command.text } }
    }
    case 'cancel':
      agent.cancel({ kind: 'user' }, { keepInbox: command.keepInbox })
      return say()
    case 'promote':
      return onQueued(agent, command.n, (id) => agent.promote(id))
    case 'move':
      return onQueued(agent, command.n, (id) => agent.move(id, command.to - 1))
    case 'drop': {
      const item = itemNumbered(agent.inbox, command.n)
      if (typeof item === 'string') return say(item)
      agent.remove(item.message.id)
      return say()
    }
    case 'approve':
      agent.approve(command.callId)
      return say()
    case 'deny':
      agent.deny(command.callId, command.reason === undefined ? {} : { reason: command.reason })
      return say()
    case 'inbox': {
      const lines = inboxLines(agent.inbox, { columns: 200, limit: Number.POSITIVE_INFINITY })
      return say(...(lines.length > 0 ? lines : ['nothing is waiting']))
    }
    case 'rollback':
      // Its `rollback` event prints what it did; a refusal (busy, too many turns) is the line.
      agent.rollback(command.turns)
      return say()
    case 'compact': {
      // Its `compaction` event prints what it did; the other endings leave a line.
      const keep = command.keepLastTurns === undefined ? {} : { keepLastTurns: command.keepLastTurns }
      return { lines: [], later: agent.compact(keep).then(compactionLine, errorText) }
    }
    case 'yes':
    case 'no':
      return say(...answerApproval(agent, command))
    case 'help':
      return say(COMMANDS_HELP, NUMBERS_HELP, HISTORY_HELP, COMPACT_HELP, APPROVAL_HELP)
    case 'unknown':
      return say(`unknown command: ${command.text} (try /help)`)
    case 'usage':
      return say(command.text)
    default:
      return say()
  }
}

/**
 * Runs a command on the agent. Plain text steers a running turn and is a followup otherwise
 * (`steer` does exactly that: R4 routes it by the acceptance window). A refusal (a disposed
 * agent, a full inbox) comes back as a line, not a throw: the app keeps running.
 */
export const runCommand = (agent: Agent, command: Command, context: CommandContext = {}): CommandResult => {
  try {
    return run(agent, command, context)
  } catch (error) {
    return say(errorText(error))
  }
}
