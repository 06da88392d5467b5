import { concatMap, defer, endWith, filter, scan, takeWhile, throwError } from 'rxjs'
import { boundWaits } from '../adapterKit/boundWaits.js'
import { environmentSecrets, secretForms, secretsOf } from '../adapterKit/redact.js'
import { waitLimitsOf } from '../adapterKit/waitLimits.js'
import type { ModelAdapter } from '../contracts/model.js'
import { callOptionsOf } from './callOptions.js'
import { checkAdapterArgs } from './checkAdapterArgs.js'
import type { FromLanguageModelOptions, LanguageModel } from './options.js'
import {
  initialParts,
  type PartsFailure,
  type PartsInput,
  type PartsStep,
  reduceStreamParts,
} from './reduceStreamParts.js'
import {
  callError,
  type ErrorContext,
  partError,
  readError,
  streamError,
  timeoutError,
  unreadableError,
} from './requestErrors.js'
import { type StreamItem, streamParts } from './streamParts.js'

/**
 * A model adapter for a language model of any AI SDK provider package: `@ai-sdk/anthropic`,
 * `@ai-sdk/google`, `@ai-sdk/openai`, `@ai-sdk/mistral`, Amazon Bedrock, community providers such
 * as Ollama's. It speaks the provider interface (`LanguageModelV4`, or `V3` of the ai 6
 * generation) directly: the `ai` package is not needed. Its types are its own (`LanguageModel`),
 * so they fit the models of both generations.
 *
 * 1. Each request calls `model.doStream` with the system text, the messages (user text, images
 *    and files as `file` parts in the shape of the model's interface version, assistant text and
 *    tool calls, tool results, as content parts when they hold media: docs/models.md), the tools as JSON Schema function tools, the app's
 *    `callOptions`, and an abort signal that follows the request's.
 * 2. Text and reasoning stream as deltas; tool calls come complete, their input the raw JSON
 *    string; `finish` carries the reason (`length` is `max-tokens`) and the usage totals.
 * 3. Every failure is a `ModelRequestError`, the same class as `steerable/openai`'s: a thrown
 *    `APICallError` keeps its `status`, `retryAfterMs` (from `retry-after-ms` or `retry-after`)
 *    and the start of the body; an `error` part, a broken stream, a stream that ends before
 *    `finish`, or a finish for `error`, `interrupted` or `content-filter` have `status: undefined`,
 *    and so does a provider value that throws when it is read (a getter, a Proxy): its message says
 *    what could not be read. A `requestError` hook may inspect it and call `agent.retry()`.
 * 4. An abort of the request's signal aborts the provider's call and errors with the signal's
 *    reason; unsubscribing aborts it too.
 * 5. Nothing happens until the returned Observable is subscribed; each subscription is one call.
 * 6. Every wait on the provider is bounded, as in `steerable/openai`: `headersTimeoutMs` until
 *    `doStream` resolves, `idleTimeoutMs` between two parts of its stream, 120 000 ms each by
 *    default. When one runs out the call is aborted and fails with a `ModelRequestError` (status
 *    `undefined`) that names the option: retrying may help.
 * 7. No error quotes the API key: what a provider or server echoes back is redacted
 *    (`[redacted]`) for the `secrets` option, credential headers in `callOptions.headers` and the
 *    environment variables named like credentials (`ANTHROPIC_API_KEY` …); an `APICallError`'s
 *    URL is shown without userinfo and query values, and the credentials in it are redacted.
 *
 * ```ts sketch
 * import { anthropic } from '@ai-sdk/anthropic'
 * const agent = createAgent({ model: fromLanguageModel(anthropic('claude-sonnet-4-5')) })
 * ```
 *
 * @throws InvalidInputError (a `TypeError`) listing every problem: `model` is not a provider's
 *   language model of version 3 or 4 (a model id string, a version 2 model of the ai 5
 *   generation, a model that throws when it is read), or a timeout is not a number of
 *   milliseconds from 1 to 2147483647.
 */
export const fromLanguageModel = (
  model: LanguageModel,
  options: FromLanguageModelOptions = {},
): ModelAdapter => {
  const { name, version } = checkAdapterArgs(model, options)
  const limits = waitLimitsOf(options)
  const headers = Object.fromEntries(
    Object.entries(options.callOptions?.headers ?? {}).filter(
      (e): e is [string, string] => typeof e[1] === 'string',
    ),
  )
  const env = typeof process === 'object' ? (process.env ?? {}) : {}
  const secrets = secretForms([
    ...(options.secrets ?? []),
    ...secretsOf(undefined, headers, ''),
    ...environmentSecrets(env),
  ])
  const context: ErrorContext = { model: name, secrets }
  return (request) =>
    defer(() =>
      streamParts({
        model,
        options: callOptionsOf(request, options, version),
        signal: request.signal,
        callError: (error) => callError(context, error, Date.now()),
        readError: (error) => readError(context, error),
        unreadable: (what, thrown) => unreadableError(context, what, thrown),
      }),
    ).pipe(
      boundWaits(limits, (wait) => timeoutError(context, limits, wait)),
      filter((item: StreamItem): item is PartsInput & StreamItem => item.type === 'part'),
      endWith<PartsInput>({ type: 'end' }),
      scan<PartsInput, PartsStep>((step, input) => reduceStreamParts(step.state, input), {
        state: initialParts,
        events: [],
      }),
      takeWhile((step) => !step.state.done, true),
      concatMap(({ events, failure }) => {
        if (failure === undefined) return events
        return throwError(() => failureError(context, failure))
      }),
    )
}

const failureError = (context: ErrorContext, failure: PartsFailure) => {
  switch (failure.kind) {
    case 'error-part':
      return partError(context, failure.error, Date.now())
    case 'unreadable':
      return unreadableError(context, 'a stream part', failure.thrown)
    case 'stream':
      return streamError(context, failure.text)
  }
}
