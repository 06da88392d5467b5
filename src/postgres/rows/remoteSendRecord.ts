import type { AgentMessage, SendOptions } from '../../contracts/messages.js'
import { acceptedSend, checkSend } from '../../messages/acceptSend.js'

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

/**
 * A remote send, accepted like a local one (R1, R2, R3, `checkSend`): input and options validated
 * and snapshotted, then the id minted. Bad input throws `InvalidInputError` naming `call`; nothing
 * is minted then.
 */
export const acceptRemoteSend = (
  input: unknown,
  options: unknown,
  preset: SendOptions | undefined,
  call: string,
): RemoteSendRecord => {
  const checked = checkSend(input, options, preset, call)
  const { message, options: accepted } = acceptedSend(checked.value, checked.options)
  return Object.freeze({ op: REMOTE_SEND_OP, message, options: accepted })
}
