import { map, type OperatorFunction } from 'rxjs'
import type { Agent } from '../contracts/agent.js'
import { InvalidInputError } from '../contracts/errors.js'
import type { AgentMessageId, SendInput, SendOptions } from '../contracts/messages.js'
import { PRESETS } from '../messages/acceptSend.js'
import { parseSendOptions } from '../messages/parseSendOptions.js'

/** The presets `sendTo` names: the options of `followup`, `steer` and `inject`. */
export type SendPreset = keyof typeof PRESETS

/**
 * Sends each value of the source to `agent` and emits the message id it returns (R82).
 *
 * Like `map((x) => agent.send(x, options))`, but the options are checked once, when `sendTo` is
 * called, and a preset can be named.
 *
 * ```text
 * source:                   --a---b--|      a, b: strings or {content, source}
 *   sendTo(agent, 'steer')
 * result:                   --A---B--|      A = agent.send(a, steer options), the id
 * ```
 *
 * Rules:
 * 1. `options` is a preset (`'followup'`, `'steer'`, `'inject'`) or `SendOptions`; anything else
 *    throws `InvalidInputError` at call time, before any subscription, and nothing is sent.
 * 2. Each value is sent when it arrives, synchronously, in source order; its id is emitted at once.
 * 3. A send that throws (bad input, `AgentDisposedError`, `AgentBusyError`, `InboxFullError` …)
 *    errors the result with that error and unsubscribes from the source; the values before it
 *    stay sent.
 * 4. Completion and errors of the source pass through; unsubscribing unsubscribes the source.
 *
 * @example
 * ```ts
 * corrections$.pipe(sendTo(agent, 'steer')).subscribe((id) => log('steered', id))
 * ```
 *
 * @param agent The agent to send to (only its `send` is used).
 * @param options A preset name or `SendOptions`.
 * @returns An operator from values to the ids of the messages they became.
 */
export function sendTo(
  agent: Pick<Agent, 'send'>,
  options: SendPreset | SendOptions,
): OperatorFunction<SendInput, AgentMessageId> {
  if (typeof agent !== 'object' || agent === null || typeof agent.send !== 'function')
    throw new InvalidInputError('sendTo()', [
      { path: ['agent'], message: 'expected an agent (createAgent())' },
    ])
  const checked = typeof options === 'string' ? preset(options) : parseSendOptions(options, 'sendTo()')
  return map((value: SendInput) => agent.send(value, checked))
}

const preset = (name: string): SendOptions => {
  if (Object.hasOwn(PRESETS, name)) return PRESETS[name as SendPreset]
  const message = `expected 'followup', 'steer', 'inject' or SendOptions ({target, wakeup}), got '${name}'`
  throw new InvalidInputError('sendTo()', [{ path: ['options'], message }])
}
