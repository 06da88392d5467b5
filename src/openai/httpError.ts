import { ModelRequestError } from '../adapterKit/ModelRequestError.js'
import { quote } from '../adapterKit/redact.js'
import { redactCause } from '../adapterKit/redactCause.js'
import { retryAfterMs } from '../adapterKit/retryAfterMs.js'
import { describeError, statusHint } from '../adapterKit/statusHint.js'
import { timeoutAdvice, type WaitLimits, type WaitName } from '../adapterKit/waitLimits.js'
import type { BodyStart } from './readBodyStart.js'

/** What every error of one adapter needs: the URL as shown, and the secrets never to quote. */
export type ErrorContext = { readonly url: string; readonly secrets: readonly string[] }

/**
 * The error of a non-2xx answer: status, the server's own error message (OpenAI's
 * `{error: {message}}`, a bare `{error}` string, vLLM's `{message}`, FastAPI's `{detail}`, else the
 * text itself), how long to wait, and a hint at the usual fix. Only the start of the body was read
 * (`readBodyStart`); what the error quotes of it is redacted and cut to 500 characters, with a note
 * of how many bytes were cut.
 */
export const httpError = (
  { url, secrets }: ErrorContext,
  response: Response,
  { text, rest }: BodyStart,
  now: number,
): ModelRequestError => {
  const wait = retryAfterMs(response.headers, now)
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`
  const own = serverMessage(text)
  const detail = own === undefined ? quote(text.trim(), secrets, 500, rest) : quote(own, secrets, 500)
  const answered = `openaiModel: POST ${url} answered ${status}${detail ? `: ${detail}` : ''}`
  const message = answered + statusHint(response.status, wait)
  return new ModelRequestError(message, {
    status: response.status,
    retryAfterMs: wait,
    body: quote(text, secrets, 500, rest),
  })
}

/** A fetch that never got an answer, or a body that broke while it was read. */
export const networkError = (
  { url, secrets }: ErrorContext,
  error: unknown,
  reading: boolean,
): ModelRequestError => {
  const what = reading ? `the connection broke while reading the answer to POST ${url}` : `POST ${url} failed`
  const fix = reading ? 'retrying the request may help' : 'check baseURL and that the server is reachable'
  return new ModelRequestError(`openaiModel: ${what}: ${quote(describeError(error), secrets, 500)}; ${fix}`, {
    cause: redactCause(error, secrets),
    retryable: true, // no answer, or a dropped connection (R108)
  })
}

/** A wait on the server that ran out (see `boundWaits`): which one, and the option that raises it. */
export const timeoutError = (
  { url }: ErrorContext,
  limits: WaitLimits,
  wait: WaitName,
): ModelRequestError => {
  const what =
    wait === 'headersTimeoutMs'
      ? `POST ${url} got no response headers within ${limits.headersTimeoutMs} ms`
      : `the answer to POST ${url} stalled: nothing arrived for ${limits.idleTimeoutMs} ms`
  const advice = timeoutAdvice(wait, (option) => `openaiModel({ ${option} })`)
  return new ModelRequestError(`openaiModel: ${what} (${wait}); ${advice}`, { retryable: true })
}

/**
 * A 2xx answer that is not an event stream: a web page (a wrong baseURL, a proxy's login page) or
 * one JSON completion (a server that ignores `stream: true`). Retrying gets the same answer, so the
 * error keeps the status and says what came back instead.
 */
export const notEventStreamError = (
  { url, secrets }: ErrorContext,
  response: Response,
  { text, rest }: BodyStart,
): ModelRequestError => {
  const type = response.headers.get('content-type')
  const what = type === null ? 'no content-type' : `content-type ${type}`
  const start = quote(text.trim(), secrets, 200, rest) || '(an empty body)'
  return new ModelRequestError(
    `openaiModel: expected a server-sent event stream from POST ${url}, but the server answered ` +
      `${response.status} with ${what}: ${start}; retrying will not help: check baseURL (it should ` +
      'end where /chat/completions follows, often /v1) and that the server streams (stream: true)',
    { status: response.status, body: quote(text, secrets, 500, rest) },
  )
}

/** The server's own message when the body is a JSON error. */
const serverMessage = (text: string): string | undefined => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return undefined
  }
  const body = record(json)
  const error = body?.error
  const candidates = [record(error)?.message, error, body?.message, body?.detail]
  const found = candidates.find((c) => typeof c === 'string' && c !== '')
  return typeof found === 'string' ? found : undefined
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined
