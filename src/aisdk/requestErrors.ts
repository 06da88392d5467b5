import { ModelRequestError } from '../adapterKit/ModelRequestError.js'
import { quote, redactURL, secretForms } from '../adapterKit/redact.js'
import { redactCause } from '../adapterKit/redactCause.js'
import { retryAfterMs } from '../adapterKit/retryAfterMs.js'
import { describeError, statusHint } from '../adapterKit/statusHint.js'
import { urlSecrets } from '../adapterKit/urlSecrets.js'
import { timeoutAdvice, type WaitLimits, type WaitName } from '../adapterKit/waitLimits.js'

/** What every error of one adapter needs: the model as errors name it, and the secrets never to quote. */
export type ErrorContext = { readonly model: string; readonly secrets: readonly string[] }

/** The fields of the AI SDK's `APICallError` that an error of ours keeps. */
type ApiCallError = Error & {
  readonly url?: unknown
  readonly statusCode?: unknown
  readonly responseHeaders?: unknown
  readonly responseBody?: unknown
  readonly isRetryable?: unknown
}

/**
 * `APICallError.isInstance` without loading `@ai-sdk/provider`: the AI SDK marks its errors with a
 * `Symbol.for` key, which holds across copies of the package.
 */
const isApiCallError = (error: unknown): error is ApiCallError => {
  try {
    const marker = Symbol.for('vercel.ai.error.AI_APICallError')
    return error instanceof Error && (error as { [marker]?: unknown })[marker] === true
  } catch {
    return false
  }
}

const fail = (
  context: ErrorContext,
  text: string,
  details: ConstructorParameters<typeof ModelRequestError>[1] = {},
) => new ModelRequestError(`fromLanguageModel(${context.model}): ${text}`, details)

const retrying = (retryable: boolean) =>
  retryable ? 'retrying the request may help' : 'retrying will not help'

/**
 * An `APICallError`: the provider's answer (status, how long to wait, the start of the body, a hint
 * at the usual fix) or a request that got no answer (`status: undefined`).
 */
const apiCallError = (context: ErrorContext, error: ApiCallError, now: number): ModelRequestError => {
  const read = (key: keyof ApiCallError): unknown => fieldOf(error, key)
  const href = read('url')
  // A provider may put its key in the URL (`?key=…`): it is a secret of this error too.
  const secrets =
    typeof href === 'string' ? secretForms([...context.secrets, ...urlSecrets(href)]) : context.secrets
  const url = typeof href === 'string' ? quote(redactURL(href), secrets, 200) : 'the provider'
  // Its message already names the cause ('Cannot connect to API: connect ECONNREFUSED …').
  const own = quote(messageOf(error), secrets, 500)
  const cause = redactCause(error, secrets)
  const statusCode = read('statusCode')
  const status = typeof statusCode === 'number' ? statusCode : undefined
  if (status === undefined)
    return fail(context, `the request to ${url} failed: ${own}; ${retrying(read('isRetryable') !== false)}`, {
      cause,
      retryable: read('isRetryable') !== false, // no answer (R108), unless the provider knows better
    })
  const wait = retryAfterMs(headersOf(read('responseHeaders')), now)
  const responseBody = read('responseBody')
  const body = typeof responseBody === 'string' ? quote(responseBody, secrets, 500) : undefined
  return fail(context, `${url} answered ${status}: ${own}${statusHint(status, wait)}`, {
    status,
    retryAfterMs: wait,
    body,
    cause,
  })
}

/**
 * A field of a provider's error, or `undefined` when reading it throws (a getter, a Proxy): the
 * error is reported with what could be read.
 */
const fieldOf = (error: object, key: PropertyKey): unknown => {
  try {
    return (error as Record<PropertyKey, unknown>)[key]
  } catch {
    return undefined
  }
}

const messageOf = (error: Error): string => {
  try {
    return String(error.message)
  } catch {
    return 'an error whose message cannot be read'
  }
}

const headersOf = (headers: unknown): Headers => {
  const out = new Headers()
  if (typeof headers !== 'object' || headers === null) return out
  let entries: [string, unknown][]
  try {
    entries = Object.entries(headers)
  } catch {
    return out // headers that cannot be read (a Proxy): no retry headers
  }
  for (const [name, value] of entries)
    if (typeof value === 'string') {
      try {
        out.set(name, value)
      } catch {
        // A name or value that HTTP refuses: not one the retry headers need.
      }
    }
  return out
}

/**
 * What `doStream` threw or rejected with: an `APICallError`, or anything else (a missing API key,
 * a prompt the provider cannot send), which a retry will not mend.
 */
export const callError = (context: ErrorContext, error: unknown, now: number): ModelRequestError =>
  isApiCallError(error)
    ? apiCallError(context, error, now)
    : fail(context, `${quote(describeError(error), context.secrets, 500)}; retrying will not help`, {
        cause: redactCause(error, context.secrets),
      })

/**
 * An `error` part of the stream: an `APICallError`, or what the provider reported mid-stream (an
 * object such as Anthropic's `{type: 'overloaded_error', message}`, a chunk it could not parse).
 */
export const partError = (context: ErrorContext, error: unknown, now: number): ModelRequestError =>
  isApiCallError(error)
    ? apiCallError(context, error, now)
    : fail(
        context,
        `the provider reported an error mid-stream: ${quote(reported(error), context.secrets, 500)}; ` +
          'retrying the request may help',
        { cause: redactCause(error, context.secrets) },
      )

/** The text of a reported error: `type: message` of an error object, else its JSON. */
const reported = (error: unknown): string => {
  try {
    if (error instanceof Error || typeof error !== 'object' || error === null) return describeError(error)
    const { type, message } = error as { type?: unknown; message?: unknown }
    if (typeof message === 'string') return typeof type === 'string' ? `${type}: ${message}` : message
    return JSON.stringify(error) ?? String(error)
  } catch {
    return 'a value that cannot be read'
  }
}

/** The stream broke while it was read (a dropped connection). */
export const readError = (context: ErrorContext, error: unknown): ModelRequestError =>
  fail(
    context,
    `the stream broke while reading the answer: ${quote(describeError(error), context.secrets, 500)}; ` +
      'retrying the request may help',
    { cause: redactCause(error, context.secrets) },
  )

/**
 * A value of the provider that threw when it was read (a getter, a Proxy): `what` names it (the
 * result of `doStream`, a read of its stream, a stream part). Only a broken provider does that, so
 * a retry will not mend it.
 */
export const unreadableError = (context: ErrorContext, what: string, thrown: unknown): ModelRequestError =>
  fail(
    context,
    `${what} cannot be read (reading it threw ${quote(describeError(thrown), context.secrets, 200)}); ` +
      'the provider package may be broken, or too new or too old for this adapter; retrying will not help',
    { cause: redactCause(thrown, context.secrets) },
  )

/** A wait on the provider that ran out (see `boundWaits`): which one, and the option that raises it. */
export const timeoutError = (
  context: ErrorContext,
  limits: WaitLimits,
  wait: WaitName,
): ModelRequestError => {
  const what =
    wait === 'headersTimeoutMs'
      ? `the provider did not start answering within ${limits.headersTimeoutMs} ms (headersTimeoutMs): ` +
        'doStream had not resolved'
      : `the answer stalled: no stream part arrived for ${limits.idleTimeoutMs} ms (idleTimeoutMs)`
  return fail(
    context,
    `${what}; ${timeoutAdvice(wait, (option) => `fromLanguageModel(model, { ${option} })`)}`,
    { retryable: true },
  )
}

/** A stream that the adapter could not take as an answer: it says why. */
export const streamError = (context: ErrorContext, text: string): ModelRequestError => fail(context, text)
