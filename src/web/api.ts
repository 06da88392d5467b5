import type { Agent } from '../contracts/agent.js'
import { ApprovalNotPendingError } from '../contracts/errors.js'
import type { AgentMessageId } from '../contracts/messages.js'
import { checkInput, type FieldRule, type FieldRules } from '../messages/checkInput.js'
import { didYouMean } from '../messages/didYouMean.js'

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

const text: FieldRule = (v) =>
  typeof v === 'string' && v.trim() !== '' ? undefined : 'expected the text to send: a string, not blank'
const id: FieldRule = (v) =>
  typeof v === 'string' ? undefined : "expected the item's id (the inbox event lists each item's)"
const index: FieldRule = (v) =>
  typeof v === 'number' ? undefined : 'expected a number: the position in the queue (0 is the front)'
const pendingCall: FieldRule = (v) =>
  typeof v === 'string' && v !== ''
    ? undefined
    : 'expected the id of a pending tool call (the approvals event lists them)'
const runningCall: FieldRule = (v) =>
  typeof v === 'string' && v !== ''
    ? undefined
    : 'expected the id of a running tool call (its agent/tool/start entry names it)'
const reason: FieldRule = (v) =>
  v === undefined || typeof v === 'string' ? undefined : 'expected a string, or no reason'
const interrupt: FieldRule = (v) =>
  v === undefined || typeof v === 'boolean' ? undefined : 'expected true or false, or no interrupt'

/** A blank reason is none: the page sends its reason box as it is. */
const reasonOption = (body: Body): { reason?: string } =>
  typeof body.reason === 'string' && body.reason.trim() !== '' ? { reason: body.reason } : {}

/** What a command answers: a new message's id, or whether `cancel-tool` cancelled the call. */
export type CommandAnswer = { readonly id?: string; readonly cancelled?: boolean }

/** A command: the fields its body must have, and the call of the agent it makes with them. */
type Command = { readonly fields: FieldRules; readonly run: (agent: Agent, body: Body) => CommandAnswer }

const done = (call: () => void): CommandAnswer => {
  call()
  return {}
}
const itemId = (body: Body): AgentMessageId => body.id as AgentMessageId

const COMMANDS: Readonly<Record<string, Command>> = {
  followup: { fields: { text }, run: (a, b) => ({ id: a.followup(b.text as string) }) },
  // `interrupt` cuts the answer being streamed (R68); absent or false, a plain steer.
  steer: {
    fields: { text, interrupt },
    run: (a, b) => ({ id: a.steer(b.text as string, b.interrupt === true ? { interrupt: true } : {}) }),
  },
  inject: { fields: { text }, run: (a, b) => ({ id: a.inject(b.text as string) }) },
  remove: { fields: { id }, run: (a, b) => done(() => a.remove(itemId(b))) },
  replace: { fields: { id, text }, run: (a, b) => done(() => a.replace(itemId(b), b.text as string)) },
  move: { fields: { id, index }, run: (a, b) => done(() => a.move(itemId(b), b.index as number)) },
  promote: { fields: { id }, run: (a, b) => done(() => a.promote(itemId(b))) },
  cancel: {
    fields: {},
    run: (a, b) => done(() => a.cancel({ kind: 'user' }, { keepInbox: b.keepInbox === true })),
  },
  approve: {
    fields: { callId: pendingCall, reason },
    run: (a, b) => done(() => a.approve(b.callId as string, reasonOption(b))),
  },
  deny: {
    fields: { callId: pendingCall, reason },
    run: (a, b) => done(() => a.deny(b.callId as string, reasonOption(b))),
  },
  'cancel-tool': {
    fields: { callId: runningCall, reason },
    run: (a, b) => ({ cancelled: a.cancelToolCall(b.callId as string, reasonOption(b)) }),
  },
}
const COMMAND_NAMES = Object.keys(COMMANDS)

/**
 * The status for a refused command: 409 when the call it decides is not pending (mostly decided
 * already, by another page or a timeout: the body was well formed, the state is what refused it),
 * else 400.
 */
export const refusedStatus = (error: unknown): 400 | 409 =>
  error instanceof ApprovalNotPendingError ? 409 : 400

/**
 * The page's commands, each one call of the agent's public API: `followup`, `steer` (`{text,
 * interrupt?}`, R68), `inject`, `remove`, `replace`, `move`, `promote`, `cancel`, `approve` and
 * `deny` (`{callId, reason?}`, R67), and `cancel-tool` (`{callId, reason?}`, R71). Returns what
 * the page gets back; a bad body or a refused call throws, and the server answers with
 * `refusedStatus` and its message. Every field is checked before the agent is called, and one
 * `InvalidInputError` lists every bad one, so a bad body changes nothing.
 *
 * `cancel-tool` answers `{cancelled}` as `cancelToolCall` returns it: a call that ended just
 * before the click is a race the page expects, not a refusal (docs/decisions.md).
 */
export const runCommand = (agent: Agent, command: string, body: Body): CommandAnswer => {
  const known = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined
  checkInput(`POST /api/${command}`, (check) => {
    if (known === undefined) check.add(['command'], didYouMean(command, COMMAND_NAMES, 'command'))
    else check.fields(body, [], known.fields)
  })
  return (known as Command).run(agent, body)
}
