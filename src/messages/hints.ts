import type { InputIssue } from '../contracts/errors.js'

const CAUSE = "expected {kind: 'user'} or {kind: 'parent'}"
const OPTIONS =
  "expected {target: 'next-turn' | 'next-step', wakeup: boolean}; or call followup(), steer() or inject()"
const CONTENT = "a non-empty array of blocks such as [{type: 'text', text: 'hi'}]"
const TEXT_AS_STRING = 'to send plain text, pass the string itself instead of {content, source}'

/**
 * The fix to suggest for a common mistake, by where it is and what was wrong: an error should
 * show the right call, not only what is missing. `value` is what was found there.
 */
const hintFor = (at: string, message: string, value: unknown): string | undefined => {
  const found = typeof value === 'string' ? ` (not the string ${JSON.stringify(value)})` : ''
  switch (at) {
    case 'cause':
      return message === 'required' ? `required: ${CAUSE.replace('expected ', '')}` : `${CAUSE}${found}`
    case 'options':
      return message === 'required' ? `required: ${OPTIONS.replace('expected ', '')}` : `${OPTIONS}${found}`
    case 'input':
      return message === 'required' ? 'required: a string, or {content, source}' : undefined
    case 'input.source':
      if (message === 'required') return "required (for example {kind: 'user'})"
      return message === 'expected object' ? `expected an object such as {kind: 'user'}${found}` : undefined
    case 'input.content':
      if (message === 'expected array')
        return typeof value === 'string'
          ? `expected ${CONTENT}, not a string; ${TEXT_AS_STRING}`
          : `expected ${CONTENT}`
      return message === 'required' || message === 'must not be empty'
        ? `${message}: ${CONTENT}; ${TEXT_AS_STRING}`
        : undefined
    default:
      return undefined
  }
}

/**
 * The issues with a suggested fix added where one is known. `values` gives what was found at a
 * path (looked up by its dotted form, indexes left out), for the messages that quote it.
 */
export const withHints = (issues: readonly InputIssue[], values: (at: string) => unknown): InputIssue[] =>
  issues.map((issue) => {
    const at = issue.path.filter((key) => typeof key === 'string').join('.')
    const hinted = hintFor(at, issue.message, values(at))
    return hinted === undefined ? issue : { path: issue.path, message: hinted }
  })
