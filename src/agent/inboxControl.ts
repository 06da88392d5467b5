import { AgentDisposedError, InvalidInputError } from '../contracts/errors.js'
import type { AgentMessageId, SendInput } from '../contracts/messages.js'
import type { Command } from '../machine/inputs.js'
import { messageOf } from '../messages/userText.js'
import { parseSendValue } from '../messages/validate.js'

/** An id as the inbox controls take it (here and from a remote client): one that send() returned. */
export const checkId = (id: unknown, call: string): AgentMessageId => {
  if (typeof id === 'string' && id !== '') return id as AgentMessageId
  throw new InvalidInputError(call, [{ path: ['id'], message: 'expected the id that send() returned' }])
}

/**
 * `remove`, `replace`, `move` and `promote` (R43–R46): each is an input of the pipeline, like a
 * send, so reentrant calls keep one global order; at top level a call returns once its input
 * (and what its subscribers sent) was processed. After `dispose()` has resolved they throw.
 */
export const inboxControl = (deps: {
  readonly command: (command: Command) => void
  readonly finished: () => boolean
}) => {
  const accepting = (call: string): void => {
    if (deps.finished()) throw new AgentDisposedError(call)
  }
  return {
    remove: (id: AgentMessageId): void => {
      const checked = checkId(id, 'remove()')
      accepting('remove()')
      deps.command({ type: 'remove', id: checked })
    },
    replace: (id: AgentMessageId, input: SendInput): void => {
      const checked = checkId(id, 'replace()')
      // Validated and snapshotted exactly like a send (R1, R2); the same id is kept.
      const value = parseSendValue(input, 'replace()')
      const message = messageOf(checked, value)
      accepting('replace()')
      deps.command({ type: 'replace', message })
    },
    move: (id: AgentMessageId, index: number): void => {
      const checked = checkId(id, 'move()')
      if (!Number.isInteger(index))
        throw new InvalidInputError('move()', [
          { path: ['index'], message: 'expected an integer position in the queue' },
        ])
      accepting('move()')
      deps.command({ type: 'move', id: checked, index })
    },
    promote: (id: AgentMessageId): void => {
      const checked = checkId(id, 'promote()')
      accepting('promote()')
      deps.command({ type: 'promote', id: checked })
    },
  }
}
