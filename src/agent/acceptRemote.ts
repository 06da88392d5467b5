import type { AgentMessageId, SendOptions } from '../contracts/messages.js'
import type { RemoteApplied, RemoteSend } from '../contracts/remote.js'
import type { RefusalData } from '../machine/inputs.js'
import { errorText } from '../messages/errorText.js'
import { messageOf } from '../messages/userText.js'
import { parseSendOptions, parseSendValue } from '../messages/validate.js'
import type { AcceptedSend } from '../runtime/splitSends.js'

type Deps = {
  readonly finished: () => boolean
  /** Whether the id waits, was delivered, or settled in this agent (or its restored journal). */
  readonly known: (id: AgentMessageId) => boolean
  /** The policy a local send meets at call time (R47–R49); throws its typed error. */
  readonly checkPolicy: (options: SendOptions) => void
  readonly enter: (send: AcceptedSend) => void
  readonly refuse: (id: AgentMessageId, error: RefusalData) => void
}

/**
 * The owner's side of a remote send (R55): its input is validated and snapshotted again (R1,
 * R2) under the id the sender minted, and the options the owner must decide (`ifBusy`, a turn
 * guard, `maxQueued`) are decided now. Anything refused settles `{kind:'refused', error}` with
 * the error as data, so a journal can hold it; nothing throws.
 */
export const remoteSends =
  (deps: Deps) =>
  (send: RemoteSend): RemoteApplied => {
    if (deps.finished()) return 'stopped'
    if (typeof send.id !== 'string' || send.id === '') return 'known'
    const id = send.id as AgentMessageId
    if (deps.known(id)) return 'known'
    try {
      const options = parseSendOptions(send.options, 'send()')
      const value = parseSendValue(send.input, 'send()')
      deps.checkPolicy(options)
      const message = messageOf(id, value)
      deps.enter({ message, options, text: typeof value === 'string' ? value : undefined })
      return 'accepted'
    } catch (error) {
      deps.refuse(id, refusalData(error))
      return 'refused'
    }
  }

const refusalData = (error: unknown): RefusalData => {
  const name = error instanceof Error && typeof error.name === 'string' ? error.name : 'Error'
  return { name, message: errorText(error) }
}
