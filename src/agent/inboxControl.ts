import { InvalidInputError } from '../contracts/errors.js'
import type { AgentMessageId } from '../contracts/messages.js'
import type { Command } from '../machine/inputs.js'
import { parseSendValue } from '../messages/parseSendValue.js'
import { messageOf } from '../messages/userText.js'

/** An id as the inbox controls take it (here and from a remote client): one that send() returned. */
export const checkId = (id: unknown, call: string): AgentMessageId => {
  if (typeof id === 'string' && id !== '') return id as AgentMessageId
  throw new InvalidInputError(call, [{ path: ['id'], message: 'expected the id that send() returned' }])
}

/**
 * The commands of `remove`, `replace`, `move` and `promote` (R43–R46), checked: bad input throws
 * `InvalidInputError` naming the call. Each is an input of the pipeline, like a send, so reentrant
 * calls keep one global order.
 */
export const removeCommand = (id: unknown): Command => ({ type: 'remove', id: checkId(id, 'remove()') })

/** Validated and snapshotted exactly like a send (R1, R2); the same id is kept. */
export const replaceCommand = (id: unknown, input: unknown, maxBlockBytes?: number): Command => {
  const checked = checkId(id, 'replace()')
  return { type: 'replace', message: messageOf(checked, parseSendValue(input, 'replace()', maxBlockBytes)) }
}

export const moveCommand = (id: unknown, index: unknown): Command => {
  const checked = checkId(id, 'move()')
  if (!Number.isInteger(index))
    throw new InvalidInputError('move()', [
      { path: ['index'], message: 'expected an integer position in the queue' },
    ])
  return { type: 'move', id: checked, index: index as number }
}

export const promoteCommand = (id: unknown): Command => ({ type: 'promote', id: checkId(id, 'promote()') })
