import { catchError, defer, endWith, from, map, of, takeWhile } from 'rxjs'
import type { Message } from '../contracts/messages.js'
import type { ModelAdapter, ModelEvent, ModelRequest, ToolSpec } from '../contracts/model.js'
import type { Signal } from '../machine/inputs.js'
import type { Transcript } from '../session/transcript.js'
import type { Activities } from './activities.js'
import type { EffectAnswer } from './mergeEffects.js'
import { parseModelEvent } from './parseModelEvent.js'

export type ModelCallDeps = {
  readonly agentId: string
  readonly model: ModelAdapter
  readonly system?: string
  readonly toolSpecs: readonly ToolSpec[]
  readonly transcript: Transcript
  /** Cuts an Observable answer off at the activity's `stop` effect (R25). */
  readonly activities: Pick<Activities, 'untilStopped'>
}

export type ModelCall = {
  readonly activity: number
  readonly turn: number
  readonly step: number
  /** The activity's signal, made on first read (most adapters that answer at once never read it). */
  readonly signal: () => AbortSignal
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
  const request = modelRequest(deps, call)
  let answer: ReturnType<ModelAdapter>
  try {
    answer = deps.model(request)
    // Inside the try: `Array.isArray` throws on a revoked Proxy, whatever an adapter returns.
    if (Array.isArray(answer)) return signalsOf(answer as readonly ModelEvent[], activity, step)
  } catch (error) {
    return { type: 'model/failed', activity, step, error }
  }
  return defer(() => from(answer)).pipe(
    map(parseModelEvent),
    takeWhile((event) => event.type !== 'finish', true),
    map((event): Signal => ({ type: 'model/event', activity, step, event })),
    endWith<Signal>({ type: 'model/complete', activity, step }),
    catchError((error: unknown) => of<Signal>({ type: 'model/failed', activity, step, error })),
    (signals) => deps.activities.untilStopped(activity, signals),
  )
}

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
    signals.push({ type: 'model/failed', activity, step, error })
  }
  return signals
}

/**
 * The request of one model call. `messages` is taken at this position but copied only if the
 * adapter reads it (a copy per step of the whole history is O(n) per step, O(n²) over a
 * session); `signal` is made only if read.
 *
 * A class, with both getters on its prototype: an object literal with getters costs about 1 µs
 * to make in V8 (new closures and a map of its own each time), a class instance about 20 ns
 * per model call. The price: `{...request}` copies the plain fields only; the README says how
 * to wrap an adapter.
 */
class LazyModelRequest implements ModelRequest {
  readonly agentId: string
  readonly turn: number
  readonly step: number
  readonly tools: readonly ToolSpec[]
  declare readonly system?: string
  readonly #transcript: Transcript
  readonly #count: number
  readonly #call: ModelCall
  #messages: readonly Message[] | undefined

  constructor(deps: ModelCallDeps, call: ModelCall) {
    this.agentId = deps.agentId
    this.turn = call.turn
    this.step = call.step
    this.tools = deps.toolSpecs
    if (deps.system !== undefined) (this as { system?: string }).system = deps.system
    this.#transcript = deps.transcript
    this.#count = deps.transcript.messageCount
    this.#call = call
  }

  get messages(): readonly Message[] {
    this.#messages ??= this.#transcript.messagesAt(this.#count)
    return this.#messages
  }

  get signal(): AbortSignal {
    return this.#call.signal()
  }

  /** `JSON.stringify(request)` shows the whole request, `messages` included (not the signal). */
  toJSON(): Omit<ModelRequest, 'signal'> {
    const { agentId, turn, step, system, messages, tools } = this
    return system === undefined
      ? { agentId, turn, step, messages, tools }
      : { agentId, turn, step, system, messages, tools }
  }
}

const modelRequest = (deps: ModelCallDeps, call: ModelCall): ModelRequest => new LazyModelRequest(deps, call)
