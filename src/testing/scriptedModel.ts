import {
  concatMap,
  from,
  isObservable,
  Observable,
  type ObservableInput,
  type SchedulerLike,
  throwError,
  timer,
} from 'rxjs'
import type { Usage } from '../contracts/messages.js'
import type { FinishReason, ModelAdapter, ModelEvent, ModelRequest } from '../contracts/model.js'

/** One scripted answer. */
export type ScriptedReply =
  /** Text, streamed one word (with its trailing space) per delta, then `finish: stop`. */
  | string
  | {
      readonly text?: string
      readonly reasoning?: string
      readonly toolCalls?: readonly {
        readonly id?: string
        readonly name: string
        readonly arguments?: string
      }[]
      /** Default: `tool-calls` when there are tool calls, else `stop`. */
      readonly finish?: FinishReason
      readonly usage?: Usage
      /** Time between the request and the reply (frames on a test scheduler); see the options. */
      readonly delay?: number
    }
  /** Never answers; errors with the abort reason once the request's signal aborts. */
  | { readonly hang: true }
  /** Fails before its first event (after `delay`, when given). */
  | { readonly error: unknown; readonly delay?: number }
  /** Any stream of events, for example a marble `cold(...)`. */
  | Observable<ModelEvent>
  /** Computes the answer from the request. */
  | ((request: ModelRequest) => ObservableInput<ModelEvent>)

export type ScriptedModel = ModelAdapter & {
  /** Every request received so far, in order. */
  readonly requests: readonly ModelRequest[]
}

export type ScriptedModelOptions = {
  /**
   * The clock of the delays: a `TestScheduler` makes them virtual (frames of a marble diagram).
   * Default: RxJS's `asyncScheduler` (milliseconds).
   */
  readonly scheduler?: SchedulerLike
  /**
   * The time between a request and its reply, for replies that give no `delay` of their own
   * (strings, `{text …}`, `{error}`); the whole reply then arrives at once. Default 0: at once,
   * in the request's own call stack. Observables and functions keep their own timing.
   */
  readonly delay?: number
}

/** Splits text into word deltas that concatenate back to the text. */
export const wordDeltas = (text: string): string[] => text.match(/\S+\s*|\s+/g) ?? []

const hang = (signal: AbortSignal): Observable<ModelEvent> =>
  new Observable<ModelEvent>((subscriber) => {
    const onAbort = () => subscriber.error(signal.reason)
    if (signal.aborted) onAbort()
    signal.addEventListener('abort', onAbort, { once: true })
    return () => signal.removeEventListener('abort', onAbort)
  })

const eventsOf = (
  reply: Exclude<ScriptedReply, string | Observable<ModelEvent> | ((r: ModelRequest) => unknown)>,
) => {
  if ('hang' in reply || 'error' in reply) return []
  const events: ModelEvent[] = []
  if (reply.reasoning)
    for (const text of wordDeltas(reply.reasoning)) events.push({ type: 'reasoning', text })
  if (reply.text) for (const text of wordDeltas(reply.text)) events.push({ type: 'text', text })
  const calls = reply.toolCalls ?? []
  calls.forEach((call, i) => {
    events.push({
      type: 'tool-call',
      id: call.id ?? `call-${i + 1}`,
      name: call.name,
      arguments: call.arguments ?? '{}',
    })
  })
  const reason = reply.finish ?? (calls.length > 0 ? 'tool-calls' : 'stop')
  events.push({ type: 'finish', reason, ...(reply.usage ? { usage: reply.usage } : {}) })
  return events
}

/**
 * A model that answers from a script, one reply per request, in order. A request past the end of
 * the script fails (a request failure, R24) with a message saying so. With `options.delay` (or a
 * reply's own `delay`) each reply arrives that long after its request, on `options.scheduler`.
 *
 * ```ts
 * const model = scriptedModel(['Hello there.', { hang: true }, cold('--a--(b|)', events)])
 * ```
 */
export const scriptedModel = (
  script: readonly ScriptedReply[],
  options: ScriptedModelOptions = {},
): ScriptedModel => {
  const requests: ModelRequest[] = []
  // No delay keeps the reply synchronous, as it always was: a timer of 0 would still be a tick.
  const later = (delay: number | undefined, events: () => ObservableInput<ModelEvent>) => {
    const wait = delay ?? options.delay ?? 0
    return wait > 0 ? timer(wait, options.scheduler).pipe(concatMap(events)) : events()
  }
  const adapter = (request: ModelRequest): ObservableInput<ModelEvent> => {
    requests.push(request)
    const reply = script[requests.length - 1]
    if (reply === undefined) {
      const where = `turn ${request.turn}, step ${request.step}`
      return throwError(
        () => new Error(`scriptedModel: no reply scripted for request ${requests.length} (${where})`),
      )
    }
    if (typeof reply === 'string') return later(undefined, () => from(eventsOf({ text: reply })))
    if (typeof reply === 'function') return reply(request)
    if (isObservable(reply)) return reply
    if ('hang' in reply) return hang(request.signal)
    if ('error' in reply) return later(reply.delay, () => throwError(() => reply.error))
    return later(reply.delay, () => from(eventsOf(reply)))
  }
  return Object.assign(adapter, { requests })
}
