import { InvalidInputError } from '../contracts/errors.js'
import type { SendInput, SendOptions } from '../contracts/messages.js'
import { mintMessageId } from '../messages/mint.js'
import { userTextMessage } from '../messages/userText.js'
import { parseSendOptions, parseSendValue } from '../messages/validate.js'
import type { AcceptedSend } from '../runtime/splitSends.js'

/** The three presets of `send` (docs/contract.md, section 2). */
export const FOLLOWUP: SendOptions = Object.freeze({ target: 'next-turn', wakeup: true })
export const STEER: SendOptions = Object.freeze({ target: 'next-step', wakeup: true })
export const INJECT: SendOptions = Object.freeze({ target: 'next-step', wakeup: false })

/**
 * A send as it enters the pipeline: its input validated, snapshotted and deep-frozen (R1, R2),
 * then its id minted (R3). Bad input throws `InvalidInputError` naming `call`, before any id.
 *
 * A value that is the string shorthand's (the string, or data exactly equal to it) is made in one
 * go, and `text` names its string so the queue can keep it compactly
 * (docs/performance.md#compact-queued-text).
 */
export const acceptSend = (input: SendInput, options: SendOptions, call: string): AcceptedSend => {
  const value = parseSendValue(input, call)
  const id = mintMessageId()
  if (typeof value === 'string') return { message: userTextMessage(id, value), options, text: value }
  return {
    message: Object.freeze({ id, content: value.content, source: value.source }),
    options,
    text: undefined,
  }
}

/**
 * `send(input, options)`'s options, checked; when they are bad, the input is checked too, so
 * one error lists what is wrong with both (`send(undefined)` names the missing input as well).
 */
export const checkSendOptions = (input: unknown, options: unknown): SendOptions => {
  try {
    return parseSendOptions(options, 'send()')
  } catch (optionsError) {
    try {
      parseSendValue(input, 'send()')
    } catch (inputError) {
      if (inputError instanceof InvalidInputError && optionsError instanceof InvalidInputError)
        throw new InvalidInputError('send()', [...inputError.issues, ...optionsError.issues])
    }
    throw optionsError
  }
}
