import { InvalidInputError } from '../../contracts/errors.js'

/** The longest session id: ids are keys, and a key this long is a mistake. */
const MAX_LENGTH = 200

/** Throws `InvalidInputError` (naming `call`) unless `sessionId` is a usable session id. */
export const checkSessionId = (sessionId: unknown, call: string): void => {
  const problem =
    typeof sessionId !== 'string'
      ? `expected a string, got ${sessionId === null ? 'null' : typeof sessionId}`
      : sessionId.length === 0
        ? 'expected a non-empty string'
        : sessionId.length > MAX_LENGTH
          ? `at most ${MAX_LENGTH} characters, got ${sessionId.length}`
          : sessionId.includes('\u0000')
            ? 'a session id cannot hold the character U+0000'
            : undefined
  if (problem) throw new InvalidInputError(call, [{ path: ['sessionId'], message: problem }])
}

/** Throws `InvalidInputError` (naming `call`) unless `id` can be a message id. */
export const checkMessageId = (id: unknown, call: string): void => {
  if (typeof id !== 'string' || id.length === 0 || id.includes('\u0000'))
    throw new InvalidInputError(call, [
      { path: ['id'], message: 'expected a message id (a non-empty string)' },
    ])
}
