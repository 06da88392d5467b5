import type { UserMessageData } from '../contracts/messages.js'
import { parseUserValue } from './parseContextInput.js'
import type { Path } from './snapshot.js'

const INPUT: Path = Object.freeze(['input'])
/**
 * `send`'s input (R1, R2), checked as `parseContextInput` checks user input, but the string `s`
 * when the value is the string shorthand's for `s` (the string itself, or data exactly equal to
 * it): the caller makes the message in one go and queues it compactly
 * (docs/performance.md#compact-queued-text). Image and file blocks may carry at most
 * `maxBlockBytes` (default 20 MiB, R86).
 */
export const parseSendValue = (
  input: unknown,
  call = 'send()',
  maxBlockBytes?: number,
): string | UserMessageData => parseUserValue(input, call, INPUT, maxBlockBytes)
