/**
 * What usually fixes a failed answer with this HTTP status, as a suffix for an error message: the
 * credentials for 401 and 403, the endpoint or model name for 404, waiting (as long as the server
 * asked) for 429 and 5xx; nothing otherwise.
 */
export const statusHint = (status: number, wait: number | undefined): string => {
  if (status === 401 || status === 403) return ' (check the API key and headers)'
  if (status === 404) return ' (check the base URL and the model name)'
  if (status === 429 || status >= 500)
    return wait === undefined ? ' (retry later)' : ` (retry after ${Math.ceil(wait)} ms)`
  return ''
}

/**
 * A thrown value as one line of text. `fetch failed (connect ECONNREFUSED 127.0.0.1:1)`: undici
 * hides the useful part in `cause`. Outside code may throw anything, even a value that throws when
 * read.
 */
export const describeError = (error: unknown): string => {
  try {
    if (!(error instanceof Error)) return String(error)
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : ''
    return `${error.message}${cause}`
  } catch {
    return 'a value that cannot be read'
  }
}
