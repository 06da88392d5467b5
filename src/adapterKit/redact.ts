/**
 * Keeping credentials out of errors. A server or a proxy may echo the request headers in an error
 * body, a fetch may name them in its error, and those errors travel on: into `agent/error`, a
 * `requestError` hook, the saved `turn/end` message and the session file. Every piece of outside
 * text that an error of this adapter quotes passes through `quote`, which blots out each secret
 * first and then cuts the text to a size fit for a message.
 */

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
 * password of the URL, as sent and in the escaped forms an echo may use (JSON, URL encoding). Longest
 * first, so that a secret that contains another is blotted out whole.
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
    ...urlCredentials(url),
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

/** The password of `http://user:password@host/…`, as written and decoded. */
const urlCredentials = (url: string): string[] => {
  const decoded = (text: string) => {
    try {
      return decodeURIComponent(text)
    } catch {
      return text
    }
  }
  const password = URL.canParse(url) ? new URL(url).password : ''
  return [password, decoded(password)]
}

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
 * An error from outside code (a fetch's rejection, a provider's error) fit to keep as a `cause`: the
 * same value when no message in its cause chain holds a secret, else a copy of each link with its
 * message redacted (same prototype, so `instanceof` still holds; same `name` and `code`; a new
 * stack). A plain object (a provider's error part) is kept when its JSON holds no secret, else
 * replaced by a copy made from its redacted JSON. A value that cannot be read (a revoked Proxy, a
 * throwing getter) is kept as it is: it cannot hold anything this adapter put there.
 */
export const redactCause = (error: unknown, secrets: readonly string[], depth = 0): unknown => {
  try {
    if (typeof error === 'string') return redact(error, secrets)
    if (depth > 8) return error
    if (!(error instanceof Error)) return redactData(error, secrets)
    const cause = redactCause(error.cause, secrets, depth + 1)
    const message = String(error.message)
    if (cause === error.cause && redact(message, secrets) === message) return error
    const copy = new Error(redact(message, secrets), 'cause' in error ? { cause } : undefined)
    Object.setPrototypeOf(copy, Object.getPrototypeOf(error))
    copy.name = String(error.name)
    const code = (error as { code?: unknown }).code
    if (code !== undefined) Object.assign(copy, { code })
    return copy
  } catch {
    return error
  }
}

/** Data that is not an `Error`: the same value, or a copy from its redacted JSON when that differs. */
const redactData = (value: unknown, secrets: readonly string[]): unknown => {
  if (typeof value !== 'object' || value === null) return value
  let json: string | undefined
  try {
    json = JSON.stringify(value)
  } catch {
    return undefined // a cycle or a BigInt: nothing that can be checked is kept
  }
  if (json === undefined) return value
  const clean = redact(json, secrets)
  return clean === json ? value : JSON.parse(clean)
}
