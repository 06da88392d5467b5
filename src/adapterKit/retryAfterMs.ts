/**
 * How long a server asked us to wait before retrying, in milliseconds, or `undefined` when it did
 * not say (or said something unreadable). OpenAI sends the precise `retry-after-ms` beside the
 * standard `retry-after`, which is either delay-seconds or an HTTP date (RFC 9110 §10.2.3); a date
 * in the past means "now". `now` is a parameter so that the date form stays pure and testable.
 */
export const retryAfterMs = (headers: Headers, now: number): number | undefined => {
  const ms = headers.get('retry-after-ms')?.trim()
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return Number(ms)
  const after = headers.get('retry-after')?.trim()
  if (!after) return undefined
  if (/^\d+(\.\d+)?$/.test(after)) return Number(after) * 1000
  // An HTTP date names its day and month; this also keeps `Date.parse` from reading `-1` as a year.
  const date = /[a-z]/i.test(after) ? Date.parse(after) : Number.NaN
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}
