import { concatMap, endWith, map, type OperatorFunction, scan, takeWhile, throwError } from 'rxjs'
import type { ModelEvent } from '../contracts/model.js'
import {
  type ChatStreamInput,
  type ChatStreamStep,
  initialChatStream,
  reduceChatStream,
} from './reduceChatStream.js'

/**
 * Turns the `data` payloads of a Chat Completions stream into model events: the pure
 * `reduceChatStream` folded over the payloads and the end of the body.
 *
 * ```text
 * data$:  -t--c--f--u--D--      t text delta, c tool-call delta, f finish_reason, u usage, D [DONE]
 * result: -t-----------(cF|)    c the complete call, F finish with usage; unsubscribes from data$
 * ```
 *
 * 1. It completes at `[DONE]` and unsubscribes from the source, which closes the connection.
 * 2. A source that completes after a `finish_reason` closes the stream the same way; one that
 *    completes before errors with `ModelRequestError` (the connection was dropped).
 * 3. A malformed payload errors with `ModelRequestError`; a source error passes through.
 * 4. What an error quotes from the stream has every one of `secrets` redacted.
 */
export const chatEvents =
  (idPrefix: string, secrets: readonly string[] = []): OperatorFunction<string, ModelEvent> =>
  (data$) =>
    data$.pipe(
      map((data): ChatStreamInput => ({ type: 'data', data })),
      endWith<ChatStreamInput>({ type: 'end' }),
      scan<ChatStreamInput, ChatStreamStep>((step, input) => reduceChatStream(step.state, input), {
        state: initialChatStream(idPrefix, secrets),
        events: [],
      }),
      takeWhile((step) => !step.state.done, true),
      concatMap((step) => (step.error ? throwError(() => step.error) : step.events)),
    )
