/** The checks of the inbox controls (R43–R46), locally and from a client: an id, and a position. */
import type { AgentMessageId } from '../contracts/messages.js'
import { checkInput, type InputCheck } from './checkInput.js'

const idOf = (check: InputCheck, id: unknown): AgentMessageId => {
  if (typeof id !== 'string' || id === '') check.add(['id'], 'expected the id that send() returned')
  return id as AgentMessageId
}

/** An id as the inbox controls take it (here and from a remote client): one that send() returned. */
export const checkId = (id: unknown, call: string): AgentMessageId =>
  checkInput(call, (check) => idOf(check, id))

/** `move(id, index)`: the id and the position in the queue, both checked at once. */
export const checkMove = (
  id: unknown,
  index: unknown,
): { readonly id: AgentMessageId; readonly index: number } =>
  checkInput('move()', (check) => {
    const checked = idOf(check, id)
    if (!Number.isInteger(index))
      check.add(['index'], 'expected a whole number: the position in the queue (0 is the front)')
    return { id: checked, index: index as number }
  })
