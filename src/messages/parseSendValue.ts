import { type InputIssue, InvalidInputError } from '../contracts/errors.js'
import type { UserMessageData } from '../contracts/messages.js'
import { parseUserValue } from './parseContextInput.js'
import type { Path } from './snapshot.js'

const INPUT: Path = Object.freeze(['input'])
const CONTENT: Path = Object.freeze(['input', 'content'])
/** Any character that is not whitespace: `test` stops at the first, so a long text costs nothing. */
const VISIBLE = /\S/

/**
 * `send`'s input (R1, R2), checked as `parseContextInput` checks user input, but the string `s`
 * when the value is the string shorthand's for `s` (the string itself, or data exactly equal to
 * it): the caller makes the message in one go and queues it compactly
 * (docs/performance.md#compact-queued-text). Image and file blocks may carry at most
 * `maxBlockBytes` (default 20 MiB, R86).
 *
 * A send with nothing in it is refused too (docs/decisions.md, "Consumer's side: empty sends and
 * node10"): a string that is empty or only whitespace, or content whose blocks are all text
 * blocks of that kind. It would open a turn on an empty prompt, which providers reject or answer
 * with a guess; it is nearly always a bug in the caller (an unchecked text field). Any other
 * block, an image say, is something to read, so it makes the send valid with or without text.
 */
export const parseSendValue = (
  input: unknown,
  call = 'send()',
  maxBlockBytes?: number,
): string | UserMessageData => {
  const value = parseUserValue(input, call, INPUT, maxBlockBytes)
  if (isBlank(value))
    throw new InvalidInputError(call, [typeof input === 'string' ? EMPTY_STRING : EMPTY_CONTENT])
  return value
}

/** The issue names what the caller wrote: data equal to the string shorthand is still data. */
const EMPTY_STRING: InputIssue = Object.freeze({
  path: INPUT,
  message: 'empty text: pass the text to send (not empty, not only whitespace)',
})
const EMPTY_CONTENT: InputIssue = Object.freeze({
  path: CONTENT,
  message:
    'no text: every block is an empty or whitespace-only text block; add text, or an image or file block',
})

const isBlank = (value: string | UserMessageData): boolean => {
  if (typeof value === 'string') return !VISIBLE.test(value)
  for (const block of value.content) if (block.type !== 'text' || VISIBLE.test(block.text)) return false
  return true
}
