import type { Command } from '../machine/inputs.js'
import { checkId, checkMove } from '../messages/parseInboxEdit.js'
import { parseSendValue } from '../messages/parseSendValue.js'
import { messageOf } from '../messages/userText.js'

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

export const moveCommand = (id: unknown, index: unknown): Command => ({
  type: 'move',
  ...checkMove(id, index),
})

export const promoteCommand = (id: unknown): Command => ({ type: 'promote', id: checkId(id, 'promote()') })
