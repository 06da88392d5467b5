import type { ObservableInput } from 'rxjs'
import type { Message, ToolCallBlock, Usage } from './messages.js'

/** What the model sees of a tool: JSON Schema generated from the tool's zod schema. */
export type ToolSpec = { readonly name: string; readonly description: string; readonly parameters: unknown }

export type FinishReason = 'stop' | 'tool-calls' | 'max-tokens'

/** One event of a model's streamed answer (docs/contract.md, section 3). */
export type ModelEvent =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'reasoning'; readonly text: string }
  | ({ readonly type: 'tool-call' } & Omit<ToolCallBlock, 'type'>)
  | { readonly type: 'finish'; readonly reason: FinishReason; readonly usage?: Usage }
  /**
   * Usage the provider sent before its finish (Anthropic sends the input count first): kept when
   * the request is then cut or fails (R69, R73). A later `usage` or `finish.usage` overrides the
   * fields it names.
   */
  | { readonly type: 'usage'; readonly usage: Usage }

/**
 * One model call, a plain object. `messages` and `signal` are its own enumerable getters, made on
 * first read, so a spread keeps them (it reads them once): a wrapping adapter may pass the request
 * on as `inner({...request, system: 'Be brief.'})`.
 */
export type ModelRequest = {
  readonly agentId: string
  readonly turn: number
  readonly step: number
  readonly system?: string
  /** The conversation so far (`session.messages()` at this step), copied on first read. */
  readonly messages: readonly Message[]
  readonly tools: readonly ToolSpec[]
  /** The turn's abort signal, made on first read. */
  readonly signal: AbortSignal
}

/**
 * The model contract: one request in, a stream of events out. A stream that completes without
 * `finish` finished with `stop`; a stream error is a request failure; events after `finish` are
 * ignored. Return anything RxJS's `from` accepts: an Observable, an async iterable, a Promise of
 * one event, an array.
 */
export type ModelAdapter = (request: ModelRequest) => ObservableInput<ModelEvent>
