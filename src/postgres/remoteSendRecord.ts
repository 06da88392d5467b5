import { InvalidInputError } from '../contracts/errors.js'
import type { AgentMessage, SendOptions } from '../contracts/messages.js'
import { mintMessageId } from '../messages/mint.js'
import { messageOf } from '../messages/userText.js'
import { parsePresetOptions, parseSendOptions, parseSendValue } from '../messages/validate.js'

/**
 * A send from a process that does not drive the session, as its inbox journal row holds it: the
 * accepted message and the options it was sent with. It is a request, not an inbox record: the
 * owner routes it by its own window when it applies it (R55), and journals what it did with it
 * (an `add`, or a `settle` for a refusal) under the same id.
 */
export type RemoteSendRecord = {
  readonly op: typeof REMOTE_SEND_OP
  readonly message: AgentMessage
  readonly options: SendOptions
}

/** The `op` of a remote send's journal row; the owner's own records never use it. */
export const REMOTE_SEND_OP = 'send'

/** The presets of `send`, as `createAgent` defines them (docs/contract.md, section 2). */
export const PRESETS = {
  followup: Object.freeze({ target: 'next-turn', wakeup: true }),
  steer: Object.freeze({ target: 'next-step', wakeup: true }),
  inject: Object.freeze({ target: 'next-step', wakeup: false }),
} as const satisfies Record<string, SendOptions>

/**
 * A remote send, accepted like a local one (R1, R2, R3): input and options validated and
 * snapshotted, then the id minted. Bad input throws `InvalidInputError` naming `call`; nothing
 * is minted then.
 */
export const acceptRemoteSend = (
  input: unknown,
  options: unknown,
  preset: SendOptions | undefined,
  call: string,
): RemoteSendRecord => {
  let checked: SendOptions
  try {
    checked = preset ? parsePresetOptions(options, preset, call) : parseSendOptions(options, call)
  } catch (optionsError) {
    // One error lists what is wrong with both, as a local send's does.
    try {
      parseSendValue(input, call)
    } catch (inputError) {
      if (inputError instanceof InvalidInputError && optionsError instanceof InvalidInputError)
        throw new InvalidInputError(call, [...inputError.issues, ...optionsError.issues])
    }
    throw optionsError
  }
  const value = parseSendValue(input, call)
  const id = mintMessageId()
  const message = messageOf(id, value)
  return Object.freeze({ op: REMOTE_SEND_OP, message, options: checked })
}
