import type { UserMessageData } from '../contracts/messages.js'
import { parseUserValue } from './parseContextInput.js'
import type { Path } from './snapshot.js'

const INPUT: Path = Object.freeze(['input'])
/**
 * `send`'s input (R1, R2), checked as `parseContextInput` checks user input, but the string `s`
 * when the value is the string shorthand's for `s` (the string itself, or data exactly equal to
 * it): the caller makes the message in one go and queues it compactly
 * (docs/performance.md#compact-queued-text).
 */
export const parseSendValue = (input: unknown, call = 'send()'): string | UserMessageData =>
  parseUserValue(input, call, INPUT)
