import { concatMap, defer } from 'rxjs'
import { boundWaits } from '../adapterKit/boundWaits.js'
import { redact, redactURL, secretsOf } from '../adapterKit/redact.js'
import { waitLimitsOf } from '../adapterKit/waitLimits.js'
import type { ModelAdapter } from '../contracts/model.js'
import { chatEvents } from './chatEvents.js'
import { chatRequestBody } from './chatRequestBody.js'
import { checkOptions } from './checkOptions.js'
import { timeoutError } from './httpError.js'
import type { OpenAIModelOptions } from './options.js'
import { postEventStream } from './postEventStream.js'

const defaultBaseURL = 'https://api.openai.com/v1'

/**
 * `${baseURL}/chat/completions`, with a query string of the baseURL kept after the path: Azure
 * wants `?api-version=…`, and some gateways take their key there (`?api-key=…`).
 */
const endpointOf = (baseURL: string): string => {
  const at = baseURL.search(/[?#]/)
  const path = at < 0 ? baseURL : baseURL.slice(0, at)
  return `${path.replace(/\/+$/, '')}/chat/completions${at < 0 ? '' : baseURL.slice(at)}`
}

/**
 * A model adapter for OpenAI-compatible Chat Completions streaming: OpenAI, DeepSeek, vLLM,
 * llama.cpp's server, Ollama, OpenRouter and the like. Each request POSTs
 * `${baseURL}/chat/completions` with `stream: true` and reads the server-sent events.
 *
 * 1. Text and reasoning (`reasoning_content` or `reasoning`) stream as deltas; tool calls are
 *    assembled from their deltas and emitted complete, then `finish` with the final usage.
 * 2. Every failure is a `ModelRequestError`: a non-2xx answer carries `status` and
 *    `retryAfterMs`; a network failure, a dropped connection, a timeout or an unreadable stream
 *    has `status: undefined`; a 2xx that is not an event stream keeps its status (retrying gets
 *    the same answer). A `requestError` hook may inspect it and call `agent.retry()`.
 * 3. An abort of the request's signal aborts the fetch and errors with the signal's reason;
 *    unsubscribing aborts the fetch too.
 * 4. Nothing happens until the returned Observable is subscribed; each subscription is one request.
 * 5. Every wait on the server is bounded: `headersTimeoutMs` until the response headers arrive,
 *    `idleTimeoutMs` between two chunks of the body (a keep-alive comment counts). When one runs
 *    out the request is aborted and fails with a `ModelRequestError` (status `undefined`) that
 *    names the option: retrying may help.
 * 6. No error quotes the API key, a credential header or a credential in `baseURL` (its userinfo,
 *    a query parameter named like a credential): what a server or a fetch echoes back is redacted
 *    (`[redacted]`) wherever an error carries it (message, `body`, `cause`), and the URL an error
 *    names shows no userinfo and no query value.
 *
 * ```ts
 * const agent = createAgent({
 *   model: openaiModel({ model: 'gpt-4o-mini', apiKey: process.env.OPENAI_API_KEY }),
 * })
 * ```
 *
 * @throws InvalidInputError (a `TypeError`) listing every bad option: `model` is not a non-empty
 *   string, `apiKey` or a header value cannot be sent in an HTTP header (a line break, often the
 *   newline at the end of a key file), or a timeout is not a number of milliseconds from 1 to
 *   2147483647. The message never prints the key.
 */
export const openaiModel = (options: OpenAIModelOptions): ModelAdapter => {
  checkOptions(options)
  const url = endpointOf(options.baseURL ?? defaultBaseURL)
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
    ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
    ...options.headers,
  }
  const secrets = secretsOf(options.apiKey, headers, url)
  const context = { url: redact(redactURL(url), secrets), secrets }
  const limits = waitLimitsOf(options)
  return (request) =>
    defer(() =>
      postEventStream({
        // Looked up per request, so a global fetch installed later (or stubbed in a test) is used.
        fetch: options.fetch ?? globalThis.fetch,
        url,
        context,
        headers,
        body: JSON.stringify(chatRequestBody(options, request)),
        signal: request.signal,
      }),
    ).pipe(
      boundWaits(limits, (wait) => timeoutError(context, limits, wait)),
      concatMap((part) => (part.type === 'events' ? part.data : [])),
      chatEvents(`call_${request.turn}_${request.step}_`, secrets),
    )
}
