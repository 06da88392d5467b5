/**
 * Credentials that travel in a URL: the userinfo (`https://user:pass@host`, `https://token@host`)
 * and the query string (`?api-key=…`, `?key=…`, `?sig=…`). Azure, Google and many proxies take a
 * key there, and an error that quotes the URL (a fetch that refuses it, a server that echoes it)
 * would carry the key into events and the session file. `urlSecrets` finds them for `redact`;
 * `redactURL` (in `redact.ts`) shows a URL without them.
 *
 * The parts are found in the text as written, not through `URL`, which would re-encode them and
 * refuses some inputs that fetch then quotes whole in its error.
 */

/**
 * Query parameters whose values are credentials by their name: a name with `auth`, `key`,
 * `token`, `secret`, `passw`, `credential` or `signature` in it, `sig` (an Azure shared access
 * signature) and `code` (an Azure Functions key).
 */
const credentialParam = /auth|key|token|secret|passw|cookie|session|credential|signature|^sig$|^code$/i

/** `scheme://userinfo@`, the userinfo in group 2. */
export const userinfoPattern = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#@]*)@/i

const decoded = (text: string): string => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}

/** The query string of `url` as written, without `?` and the fragment; `''` when there is none. */
export const queryOf = (url: string): string => {
  const start = url.indexOf('?')
  if (start < 0) return ''
  const end = url.indexOf('#', start)
  return url.slice(start + 1, end < 0 ? undefined : end)
}

/**
 * The secrets of `url`, as written and decoded: the whole userinfo and its password (or the user
 * name when there is no password: a token in the place of the user), the value of each query
 * parameter named like a credential, and the whole query string (an echo of the full URL then
 * loses all of it, whatever its parameters are called).
 */
export const urlSecrets = (url: string): string[] => {
  const out: string[] = []
  const userinfo = userinfoPattern.exec(url)?.[2] ?? ''
  if (userinfo !== '') {
    const colon = userinfo.indexOf(':')
    const secret = colon < 0 ? userinfo : userinfo.slice(colon + 1)
    out.push(userinfo, decoded(userinfo), secret, decoded(secret))
  }
  const query = queryOf(url)
  for (const pair of query.split('&')) {
    const equals = pair.indexOf('=')
    if (equals < 0) continue
    const value = pair.slice(equals + 1)
    if (credentialParam.test(decoded(pair.slice(0, equals)))) out.push(value, decoded(value))
  }
  if (query.includes('=')) out.push(query)
  return [...new Set(out)].filter((secret) => secret !== '')
}
