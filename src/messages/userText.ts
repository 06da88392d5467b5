import type { AgentMessage, AgentMessageId, MessageSource, UserMessageData } from '../contracts/messages.js'

/** The source of the string shorthand, one frozen object shared by every such message. */
export const userSource: MessageSource = Object.freeze({ kind: 'user' })

/** The string shorthand `s`: `{content: [{type: 'text', text: s}], source: {kind: 'user'}}`, frozen. */
export const userText = (text: string): UserMessageData =>
  Object.freeze({
    content: Object.freeze([Object.freeze({ type: 'text', text } as const)]),
    source: userSource,
  })

/**
 * The message of an accepted string send, the same value (key order included) whenever it is
 * made: the queue keeps such a send as `{id, text}` and makes the message again when it is
 * needed (docs/performance.md#compact-queued-text).
 */
export const userTextMessage = (id: AgentMessageId, text: string): AgentMessage =>
  Object.freeze({
    id,
    content: Object.freeze([Object.freeze({ type: 'text', text } as const)]),
    source: userSource,
  })

/**
 * The message of a checked send value (`parseSendValue`): the string shorthand as
 * `userTextMessage`, or the snapshotted `{content, source}` under `id`, frozen.
 */
export const messageOf = (id: AgentMessageId, value: string | UserMessageData): AgentMessage =>
  typeof value === 'string'
    ? userTextMessage(id, value)
    : Object.freeze({ id, content: value.content, source: value.source })
