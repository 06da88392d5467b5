import type { AgentMessageId, SendOptions } from '../contracts/messages.js'
import type { RemoteApplied, RemoteSend } from '../contracts/remote.js'
import type { RefusalData } from '../machine/inputs.js'
import { type AcceptedSend, acceptedSend, checkSend } from '../messages/acceptSend.js'
import { errorText } from '../messages/errorText.js'

/** What the owner's agent lends to a remote send. */
export type RemoteSendTarget = {
  readonly finished: boolean
  /** The agent's `maxBlockBytes` (R86): the sender checked only the default. */
  readonly maxBlockBytes: number
  /** Whether the id waits, was delivered, or settled in this agent (or its restored journal). */
  knows(id: AgentMessageId): boolean
  /** The policy a local send meets at call time (R47–R49); throws its typed error. */
  checkPolicy(options: SendOptions): void
  enter(send: AcceptedSend): void
  refuse(id: AgentMessageId, error: RefusalData): void
}

/**
 * The owner's side of a remote send (R55): checked again exactly as a local send is (R1, R2,
 * `checkSend`), under the id the sender minted, and the options the owner must decide (`ifBusy`,
 * a turn guard, `maxQueued`) are decided now. Anything refused settles `{kind:'refused', error}`
 * with the error as data, so a journal can hold it; nothing throws.
 */
export const acceptRemote = (target: RemoteSendTarget, send: RemoteSend): RemoteApplied => {
  if (target.finished) return 'stopped'
  if (typeof send.id !== 'string' || send.id === '') return 'known'
  const id = send.id as AgentMessageId
  if (target.knows(id)) return 'known'
  try {
    const { value, options } = checkSend(send.input, send.options, undefined, 'send()', target.maxBlockBytes)
    target.checkPolicy(options)
    target.enter(acceptedSend(value, options, id))
    return 'accepted'
  } catch (error) {
    target.refuse(id, refusalData(error))
    return 'refused'
  }
}

const refusalData = (error: unknown): RefusalData => {
  const name = error instanceof Error && typeof error.name === 'string' ? error.name : 'Error'
  return { name, message: errorText(error) }
}
