import type { OpenAIModelOptions } from './options.js'

/**
 * Refuses options that could only fail later, with a `TypeError` that says what to fix (the
 * timeouts are checked by `waitLimitsOf`). A key or a
 * header value is never printed: the messages name the option and the position of the bad
 * character, because the HTTP client's own error for it quotes the whole value, key included.
 */
export const checkOptions = (options: OpenAIModelOptions): void => {
  if (typeof options?.model !== 'string' || options.model === '')
    throw new TypeError(`openaiModel(): options.model: expected the model name, for example 'gpt-4o-mini'`)
  if (options.apiKey !== undefined) {
    if (typeof options.apiKey !== 'string')
      throw new TypeError(`openaiModel(): options.apiKey: expected a string, got ${typeof options.apiKey}`)
    checkHeaderValue('options.apiKey', options.apiKey)
  }
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    const where = `options.headers['${name}']`
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name))
      throw new TypeError(`openaiModel(): ${where}: not a valid HTTP header name`)
    if (typeof value !== 'string') throw new TypeError(`openaiModel(): ${where}: expected a string value`)
    checkHeaderValue(where, value)
  }
}

const checkHeaderValue = (where: string, value: string): void => {
  const lineBreak = value.search(/[\r\n]/)
  if (lineBreak >= 0)
    throw new TypeError(
      `openaiModel(): ${where} contains a line break (character ${lineBreak + 1} of ${value.length}); ` +
        'trim it (a value read from a file often ends with a newline)',
    )
  // HTTP field values: tab, visible ASCII, space and obs-text (RFC 9110 §5.5).
  const bad = value.search(/[^\t\x20-\x7e\x80-\xff]/)
  if (bad >= 0)
    throw new TypeError(
      `openaiModel(): ${where} contains a character that cannot be sent in an HTTP header ` +
        `(character ${bad + 1} of ${value.length}); check that it was copied whole and nothing else`,
    )
}
