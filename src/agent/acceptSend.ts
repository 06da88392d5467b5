import type { AcceptedSend } from '../inbox/splitSends.js'
import type { SendInput, SendOptions } from '../messages/types.js'
import { userTextMessage } from '../messages/userText.js'
import { parseSendInput, shorthandTextOf } from '../messages/validate.js'
import { mintMessageId } from './mint.js'

/** The three presets of `send` (SPEC section 2). */
export const FOLLOWUP: SendOptions = Object.freeze({ target: 'next-turn', wakeup: true })
export const STEER: SendOptions = Object.freeze({ target: 'next-step', wakeup: true })
export const INJECT: SendOptions = Object.freeze({ target: 'next-step', wakeup: false })

/**
 * A send as it enters the pipeline: its input validated, snapshotted and deep-frozen (R1, R2),
 * then its id minted (R3). Bad input throws `InvalidInputError` naming `call`, before any id.
 *
 * The string shorthand needs no checking and is made in one go; `text` names the string when
 * the value is the shorthand's, so the queue can keep it compactly (issue #7).
 */
export const acceptSend = (input: SendInput, options: SendOptions, call: string): AcceptedSend => {
  if (typeof input === 'string') {
    const id = mintMessageId()
    return { message: userTextMessage(id, input), options, text: input }
  }
  const data = parseSendInput(input, call)
  const id = mintMessageId()
  const message = Object.freeze({ id, content: data.content, source: data.source })
  return { message, options, text: shorthandTextOf(data) }
}
