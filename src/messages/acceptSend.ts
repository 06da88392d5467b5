import { InvalidInputError } from '../contracts/errors.js'
import type { AgentMessage, AgentMessageId, SendOptions, UserMessageData } from '../contracts/messages.js'
import { mintMessageId } from './mint.js'
import { parsePresetOptions, parseSendOptions } from './parseSendOptions.js'
import { parseSendValue } from './parseSendValue.js'
import { messageOf } from './userText.js'

/** The three presets of `send` (docs/contract.md, section 2), one frozen object each. */
export const FOLLOWUP: SendOptions = Object.freeze({ target: 'next-turn', wakeup: true })
export const STEER: SendOptions = Object.freeze({ target: 'next-step', wakeup: true })
export const INJECT: SendOptions = Object.freeze({ target: 'next-step', wakeup: false })
export const PRESETS = { followup: FOLLOWUP, steer: STEER, inject: INJECT } as const

/** Whether `options` is one of the presets as they are (no `ifBusy`, no turn guard). */
export const isPlainPreset = (options: SendOptions): boolean =>
  options === FOLLOWUP || options === STEER || options === INJECT

/**
 * A send after validation, snapshot and id: what enters an agent's pipeline, and what a remote
 * client stores for the owner. `text` is the string when the send was the string shorthand (the
 * queue then keeps it as `{id, text}`, docs/performance.md#compact-queued-text).
 */
export type AcceptedSend = {
  readonly message: AgentMessage
  readonly options: SendOptions
  readonly text?: string | undefined
}

/** A send's value and options, both checked (R1, R2); no id yet. */
export type CheckedSend = { readonly value: string | UserMessageData; readonly options: SendOptions }

/**
 * Checks a send's options and input together, so one `InvalidInputError` lists what is wrong
 * with both (`send(undefined)` names the missing input as well as the missing options). With a
 * `preset` the options are a preset's (`followup`, `steer`, `inject`): `undefined` is the preset.
 * Every way into an agent uses it: the local send, a remote client, and the owner that applies
 * the client's request. `maxBlockBytes` is the agent's (R86); a remote client, which cannot know
 * the owner's, checks the default and the owner checks again.
 */
export const checkSend = (
  input: unknown,
  options: unknown,
  preset: SendOptions | undefined,
  call: string,
  maxBlockBytes?: number,
): CheckedSend => {
  let checked: SendOptions
  try {
    checked = preset ? parsePresetOptions(options, preset, call) : parseSendOptions(options, call)
  } catch (optionsError) {
    try {
      parseSendValue(input, call, maxBlockBytes)
    } catch (inputError) {
      if (inputError instanceof InvalidInputError && optionsError instanceof InvalidInputError)
        throw new InvalidInputError(call, [...inputError.issues, ...optionsError.issues])
    }
    throw optionsError
  }
  return { value: parseSendValue(input, call, maxBlockBytes), options: checked }
}

/**
 * A checked send as it enters a pipeline: its message under `id`, a new one minted (R3) unless
 * the send was minted elsewhere (a remote client's id, which the owner keeps).
 */
export const acceptedSend = (
  value: string | UserMessageData,
  options: SendOptions,
  id: AgentMessageId = mintMessageId(),
): AcceptedSend => ({
  message: messageOf(id, value),
  options,
  text: typeof value === 'string' ? value : undefined,
})
