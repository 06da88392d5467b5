import { WAIT_LIMIT_RULES } from '../adapterKit/waitLimits.js'
import { checkInput, type FieldRule, type FieldRules } from '../messages/checkInput.js'
import type { OpenAIModelOptions } from './options.js'

/** A valid HTTP header name (a token of RFC 9110 §5.6.2). */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

/**
 * What cannot be sent in an HTTP header value. Never quotes the value: it may be a key, and the
 * HTTP client's own error for it quotes the whole value. The position of the bad character is
 * enough to find it.
 */
const headerValueProblem = (value: string): string | undefined => {
  const lineBreak = value.search(/[\r\n]/)
  if (lineBreak >= 0)
    return (
      `contains a line break (character ${lineBreak + 1} of ${value.length}); ` +
      'trim it (a value read from a file often ends with a newline)'
    )
  // HTTP field values: tab, visible ASCII, space and obs-text (RFC 9110 §5.5).
  const bad = value.search(/[^\t\x20-\x7e\x80-\xff]/)
  if (bad >= 0)
    return (
      'contains a character that cannot be sent in an HTTP header ' +
      `(character ${bad + 1} of ${value.length}); check that it was copied whole and nothing else`
    )
  return undefined
}

const model: FieldRule = (value) =>
  typeof value === 'string' && value !== '' ? undefined : "expected the model name, for example 'gpt-4o-mini'"

const apiKey: FieldRule = (value) => {
  if (value === undefined) return undefined
  return typeof value === 'string' ? headerValueProblem(value) : `expected a string, got ${typeof value}`
}

const headers: FieldRule = (value, path, check) => {
  if (value === undefined) return undefined
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return "expected an object of header values by name, such as { 'x-title': 'my app' }"
  for (const [name, header] of Object.entries(value)) {
    const at = [...path, name]
    if (!HEADER_NAME.test(name)) check.add(at, 'not a valid HTTP header name')
    else if (typeof header !== 'string') check.add(at, `expected a string value, got ${typeof header}`)
    else {
      const problem = headerValueProblem(header)
      if (problem !== undefined) check.add(at, problem)
    }
  }
  return undefined
}

const OPTIONS: FieldRules = { model, apiKey, headers, ...WAIT_LIMIT_RULES }

/**
 * Refuses options that could only fail later, with one `InvalidInputError` that lists every
 * problem and says what to fix. A key or a header value is never printed: the messages name the
 * option and the position of the bad character.
 */
export const checkOptions = (options: OpenAIModelOptions): void =>
  checkInput('openaiModel()', (check) => {
    if (typeof options !== 'object' || options === null)
      return check.add(['options'], "expected an object such as { model: 'gpt-4o-mini', apiKey }")
    check.fields(options, ['options'], OPTIONS)
  })
