import { concat, from, Observable, type ObservableInput, of } from 'rxjs'
import type { Message } from '../contracts/messages.js'
import type { ModelAdapter, ModelEvent, ModelRequest, ToolSpec } from '../contracts/model.js'
import type { Signal } from '../machine/inputs.js'
import { estimateTokens } from '../machine/requestUsage.js'
import type { Transcript } from '../session/transcript.js'
import type { ToolCatalog } from '../tools/toolCatalog.js'
import type { Activities } from './activities.js'
import type { EffectAnswer } from './mergeEffects.js'
import { parseModelEvent } from './parseModelEvent.js'
import { modelFailed } from './retryHint.js'

export type ModelCallDeps = {
  readonly agentId: string
  readonly model: ModelAdapter
  readonly system: string | undefined
  readonly toolbox: ToolCatalog<unknown>
  readonly transcript: Transcript
  /** Cuts an Observable answer off at the activity's `stop` effect (R25). */
  readonly activities: Pick<Activities, 'untilStopped'>
}

export type ModelCall = {
  readonly activity: number
  readonly turn: number
  readonly step: number
  /** The version of the tool list the step sees (R100). */
  readonly tools: number
  /** The request's signal, made on first read (most adapters that answer at once never read it). */
  readonly signal: () => AbortSignal
  /** The request's part of the activity: an interrupting steer stops it alone (R68). */
  readonly part: string
}

/**
 * Runs the `model` effect: builds the request, calls the adapter, and turns its events into
 * `model/event` signals up to and including `finish`, then `model/complete`; a throw or a stream
 * error becomes `model/failed` after the events before it.
 *
 * An adapter that returns an array (a scripted or cached answer) is answered at once, with the
 * same signals in the same order as through `from(array)`: nothing can stop the answer halfway,
 * because the signals of one effect are all queued before the first of them is reduced.
 */
export const callModel = (deps: ModelCallDeps, call: ModelCall): EffectAnswer => {
  const { activity, step } = call
  deps.toolbox.stepStarted(call.tools)
  const specs = deps.toolbox.list(call.tools).specs
  const request = modelRequest(deps, call, specs)
  // R73: the prompt's size now, for the usage of a request whose provider reports none.
  const started: Signal = { type: 'model/started', activity, step, inputTokens: promptTokens(deps, specs) }
  let answer: ReturnType<ModelAdapter>
  try {
    answer = deps.model(request)
    // Inside the try: `Array.isArray` throws on a revoked Proxy, whatever an adapter returns.
    if (Array.isArray(answer)) return [started, ...signalsOf(answer as readonly ModelEvent[], activity, step)]
  } catch (error) {
    return [started, modelFailed(activity, step, error)]
  }
  const signals = answerSignals(answer, activity, step)
  return concat(of(started), deps.activities.untilStopped(activity, signals, call.part))
}

/** The estimated tokens of a request's prompt: system prompt, tool specs and messages (R73). */
const promptTokens = (deps: ModelCallDeps, specs: readonly ToolSpec[]): number =>
  estimateTokens((deps.system?.length ?? 0) + specChars(specs) + deps.transcript.messageChars)

const jsonLength = (value: unknown): number => {
  try {
    return JSON.stringify(value)?.length ?? 0
  } catch {
    return 0 // a schema JSON cannot hold (a BigInt default, a cycle) is not worth a failed step
  }
}

/** Tool specs are the same for every request of a list: measured once per list. */
const specSizes = new WeakMap<readonly ToolSpec[], number>()
const specChars = (specs: readonly ToolSpec[]): number => {
  let chars = specSizes.get(specs)
  if (chars === undefined) {
    chars = specs.length === 0 ? 0 : jsonLength(specs)
    specSizes.set(specs, chars)
  }
  return chars
}

/**
 * A streamed answer as signals: what `from(answer)` with `map(parseModelEvent)`, `takeWhile`
 * up to and including `finish`, `map` to `model/event`, `endWith(model/complete)` and
 * `catchError(→ model/failed)` would give, in one subscriber: each delta of a long answer
 * crosses one hop instead of six (docs/performance.md#one-hop-per-delta).
 */
const answerSignals = (answer: unknown, activity: number, step: number): Observable<Signal> =>
  new Observable<Signal>((subscriber) => {
    const fail = (error: unknown): void => {
      subscriber.next(modelFailed(activity, step, error))
      subscriber.complete()
    }
    let events: Observable<unknown>
    try {
      events = from(answer as ObservableInput<unknown>)
    } catch (error) {
      return fail(error)
    }
    return events.subscribe({
      next: (raw) => {
        if (subscriber.closed) return
        let event: ModelEvent
        try {
          event = parseModelEvent(raw)
        } catch (error) {
          return fail(error)
        }
        subscriber.next({ type: 'model/event', activity, step, event })
        if (event.type !== 'finish') return
        subscriber.next({ type: 'model/complete', activity, step })
        subscriber.complete()
      },
      error: fail,
      complete: () => {
        subscriber.next({ type: 'model/complete', activity, step })
        subscriber.complete()
      },
    })
  })

const signalsOf = (events: readonly unknown[], activity: number, step: number): Signal[] => {
  const signals: Signal[] = []
  try {
    for (const raw of events) {
      const event = parseModelEvent(raw)
      signals.push({ type: 'model/event', activity, step, event })
      if (event.type === 'finish') break
    }
    signals.push({ type: 'model/complete', activity, step })
  } catch (error) {
    signals.push(modelFailed(activity, step, error))
  }
  return signals
}

/** What a request's getters read: kept under a symbol, so the getters are shared, not closures. */
const STATE = Symbol('steerable.modelRequest')
type RequestState = {
  readonly transcript: Transcript
  readonly count: number
  messages: readonly Message[] | undefined
  readonly call: ModelCall
}
type WithState = { readonly [STATE]: RequestState }

function readMessages(this: WithState): readonly Message[] {
  const state = this[STATE]
  state.messages ??= state.transcript.messagesAt(state.count)
  return state.messages
}
function readSignal(this: WithState): AbortSignal {
  return this[STATE].call.signal()
}
const MESSAGES: PropertyDescriptor = { get: readMessages, enumerable: true, configurable: true }
const SIGNAL: PropertyDescriptor = { get: readSignal, enumerable: true, configurable: true }

/**
 * The request of one model call: a plain object, so an adapter that wraps another can spread it
 * (`inner({...request, system})`). `messages` and `signal` are its own enumerable getters: the
 * messages are taken at this position but copied only when read (a copy per step of the whole
 * history would be O(n) per step, O(n²) over a session), and the signal is made only when read.
 * A spread reads both, which is what a wrapper wants.
 *
 * The getters are two shared functions defined on each request (about 0.4 µs); an object
 * literal with getters makes two closures and a map of its own each time (about 1 µs).
 */
const modelRequest = (deps: ModelCallDeps, call: ModelCall, tools: readonly ToolSpec[]): ModelRequest => {
  const { transcript } = deps
  const state: RequestState = { transcript, count: transcript.messageCount, messages: undefined, call }
  const request =
    deps.system === undefined
      ? { agentId: deps.agentId, turn: call.turn, step: call.step, tools, [STATE]: state }
      : {
          agentId: deps.agentId,
          turn: call.turn,
          step: call.step,
          system: deps.system,
          tools,
          [STATE]: state,
        }
  Object.defineProperty(request, 'messages', MESSAGES)
  Object.defineProperty(request, 'signal', SIGNAL)
  return request as unknown as ModelRequest
}
