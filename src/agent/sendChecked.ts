import type { Agent } from '../contracts/agent.js'
import { AgentDisposedError } from '../contracts/errors.js'
import type { AgentMessageId, SendOptions } from '../contracts/messages.js'
import { acceptedSend, checkSend, isPlainPreset } from '../messages/acceptSend.js'
import type { Driver } from '../runtime/driver.js'
import type { AgentParts } from './agentParts.js'
import { throwRefusal } from './refusalError.js'

/**
 * A local send, start to end: input and options checked together (R1, R2; `preset` for the three
 * presets), refused after `dispose()`, the driver's `check` (R47–R49) when the options or a bound ask for one, then the id
 * (R3), then the door. Bad input or a refusal throws before any id, and changes nothing.
 */
export const sendChecked = (
  driver: Driver<Agent>,
  parts: AgentParts,
  input: unknown,
  options: unknown,
  preset: SendOptions | undefined,
  call: string,
): AgentMessageId => {
  const checked = checkSend(input, options, preset, call, parts.maxBlockBytes)
  if (driver.finished) throw new AgentDisposedError(call)
  // The plain presets need no check unless a bound is set (the hot path of a send).
  if (!isPlainPreset(checked.options) || parts.maxQueued !== undefined)
    throwRefusal(call, driver.check({ kind: 'send', options: checked.options, maxQueued: parts.maxQueued }))
  const accepted = acceptedSend(checked.value, checked.options)
  driver.send(accepted)
  return accepted.message.id
}
