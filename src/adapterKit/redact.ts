/**
 * Keeping credentials out of errors. A server or a proxy may echo the request headers in an error
 * body, a fetch may name them in its error, and those errors travel on: into `agent/error`, a
 * `requestError` hook, the saved `turn/end` message and the session file. Every piece of outside
 * text that an error of this adapter quotes passes through `quote`, which blots out each secret
 * first and then cuts the text to a size fit for a message.
 */

import { queryOf, urlSecrets, userinfoPattern } from './urlSecrets.js'

/** What stands in for a secret in a message. */
export const redactedMark = '[redacted]'

/**
 * The header names whose values are credentials: `authorization`, `api-key` (Azure),
 * `x-api-key`, `x-goog-api-key`, `x-auth-token`, cookies, session ids and the like.
 */
const credentialName = /auth|key|token|secret|passw|cookie|session|credential|signature/i

/** `Bearer sk-…` → `sk-…`: the scheme stays readable, the credentials are the secret. */
const credentialsOf = (name: string, value: string): string =>
  /^(proxy-)?authorization$/i.test(name) ? value.replace(/^[A-Za-z][\w-]*\s+/, '') : value

/**
 * The strings that must never be quoted: the API key, the values of credential headers and the
 * credentials in the URL (`urlSecrets`), as sent and in the escaped forms an echo may use (JSON,
 * URL encoding). Longest first, so that a secret that contains another is blotted out whole.
 */
export const secretsOf = (
  apiKey: string | undefined,
  headers: Readonly<Record<string, string>>,
  url: string,
): readonly string[] => {
  const raw = [
    ...(apiKey ? [apiKey] : []),
    ...Object.entries(headers).flatMap(([name, value]) =>
      credentialName.test(name) ? [credentialsOf(name, value.trim())] : [],
    ),
    ...urlSecrets(url),
  ]
  return secretForms(raw)
}

/**
 * Each secret as sent and in the escaped forms an echo may use (JSON, URL encoding), without
 * duplicates or empty strings, longest first, so that a secret that contains another is blotted
 * out whole.
 */
export const secretForms = (raw: readonly string[]): readonly string[] => {
  const forms = raw
    .filter((secret) => secret !== '')
    .flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)])
  return [...new Set(forms)].sort((a, b) => b.length - a.length)
}

/**
 * The values of the environment variables that hold credentials by their name
 * (`ANTHROPIC_API_KEY`, `GOOGLE_GENERATIVE_AI_API_KEY`, `AWS_SECRET_ACCESS_KEY`, `HF_TOKEN` …):
 * where provider packages read their keys from when the app passes none. Values shorter than 8
 * characters are left out; they are no keys, and blotting them out would garble messages.
 */
export const environmentSecrets = (env: Readonly<Record<string, string | undefined>>): string[] =>
  Object.entries(env).flatMap(([name, value]) =>
    /key|token|secret|passw|credential/i.test(name) && value !== undefined && value.trim().length >= 8
      ? [value.trim()]
      : [],
  )

/** `text` with every secret replaced by `[redacted]`. */
export const redact = (text: string, secrets: readonly string[]): string =>
  secrets.reduce((out, secret) => (out.includes(secret) ? out.split(secret).join(redactedMark) : out), text)

/** Some bytes of a body that were not kept: `exact` is false when the rest was never read. */
export type Rest = { readonly bytes: number; readonly exact: boolean }

const encoder = new TextEncoder()
const byteLength = (text: string): number => encoder.encode(text).length

/**
 * Outside text made fit for a message: secrets redacted, then at most `maxChars` characters, with a
 * note of how many bytes were cut (`rest` counts bytes already cut before the text reached us).
 */
export const quote = (
  text: string,
  secrets: readonly string[],
  maxChars: number,
  rest: Rest = { bytes: 0, exact: true },
): string => {
  const clean = redact(text, secrets)
  if (clean.length <= maxChars && rest.bytes === 0) return clean
  const shown = clean.slice(0, maxChars)
  const cut = byteLength(clean) - byteLength(shown) + rest.bytes
  return `${shown}… [${rest.exact ? '' : 'at least '}${cut} more bytes cut]`
}

/**
 * `url` as an error may show it: the userinfo and every query value replaced by `[redacted]`
 * (`https://[redacted]@host/v1?api-version=[redacted]&key=[redacted]`). Every value, not only the
 * ones named like credentials: what a parameter holds cannot be told by its name alone, and the
 * names are enough to see which URL was meant.
 */
export const redactURL = (url: string): string => {
  const query = queryOf(url)
  const withoutUser = url.replace(userinfoPattern, `$1${redactedMark}@`)
  if (query === '') return withoutUser
  const clean = query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=')
      return equals < 0 || equals === pair.length - 1 ? pair : `${pair.slice(0, equals + 1)}${redactedMark}`
    })
    .join('&')
  const start = withoutUser.indexOf('?')
  return `${withoutUser.slice(0, start + 1)}${clean}${withoutUser.slice(start + 1 + query.length)}`
}
