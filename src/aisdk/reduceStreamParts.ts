import { isTokenCount } from '../adapterKit/tokenCount.js'
import type { Usage } from '../contracts/messages.js'
import type { FinishReason, ModelEvent } from '../contracts/model.js'

export type PartsState = {
  /** Tool calls emitted so far: a finish for `other` reasons runs them. */
  readonly calls: number
  /** `finish` seen, or failed: every later input is ignored. */
  readonly done: boolean
}

/** One part of the provider's stream (outside data, so `unknown`), or the end of the stream. */
export type PartsInput = { readonly type: 'part'; readonly part: unknown } | { readonly type: 'end' }

/**
 * Why the stream failed, as data: an `error` part's value, what was wrong (in words), or what a
 * part threw when it was read.
 */
export type PartsFailure =
  | { readonly kind: 'error-part'; readonly error: unknown }
  | { readonly kind: 'stream'; readonly text: string }
  | { readonly kind: 'unreadable'; readonly thrown: unknown }

export type PartsStep = {
  readonly state: PartsState
  readonly events: readonly ModelEvent[]
  readonly failure?: PartsFailure
}

export const initialParts: PartsState = { calls: 0, done: false }

/**
 * The stream of a provider model (`LanguageModelV4StreamPart` or `V3`) as a pure reducer:
 * `(state, input) => {state, events, failure?}`.
 *
 * - `text-delta` and `reasoning-delta` pass through as deltas (empty ones are dropped);
 * - `tool-call` is one complete call, its `input` the raw JSON string (`''` becomes `{}`); a call
 *   the provider runs itself (`providerExecuted`) is not ours to run and is left out;
 * - `finish` emits our finish with usage and closes the stream (see `finishOf` for the reasons);
 * - an `error` part fails the stream, and so does an end before `finish` (a dropped connection);
 * - the other parts (starts and ends of blocks, tool input deltas, metadata, sources, files) say
 *   nothing the loop needs and are skipped;
 * - a part that throws when it is read (a getter, a Proxy) fails the stream with what it threw.
 *   Each field is read once, so a getter cannot pass a check and then give something else.
 */
export const reduceStreamParts = (state: PartsState, input: PartsInput): PartsStep => {
  if (state.done) return { state, events: [] }
  if (input.type === 'end') return failed(state, { kind: 'stream', text: dropped })
  try {
    return reducePart(state, input.part)
  } catch (thrown) {
    return failed(state, { kind: 'unreadable', thrown })
  }
}

const reducePart = (state: PartsState, value: unknown): PartsStep => {
  const part = value as Record<string, unknown> | null
  if (typeof part !== 'object' || part === null)
    return failed(state, { kind: 'stream', text: `a stream part that is not an object: ${String(part)}` })
  const type = part.type
  switch (type) {
    case 'text-delta':
    case 'reasoning-delta': {
      const delta = part.delta
      if (typeof delta !== 'string') return malformed(state, type, 'delta')
      return {
        state,
        events: delta === '' ? [] : [{ type: type === 'text-delta' ? 'text' : 'reasoning', text: delta }],
      }
    }
    case 'tool-call':
      return toolCall(state, part)
    case 'finish':
      return finish(state, part)
    case 'error':
      return failed(state, { kind: 'error-part', error: part.error })
    default:
      return { state, events: [] }
  }
}

const dropped =
  'the stream ended before the model finished (no finish part): the connection was dropped ' +
  'mid-stream; retrying the request may help'

const toolCall = (state: PartsState, part: Record<string, unknown>): PartsStep => {
  if (part.providerExecuted === true) return { state, events: [] }
  const { toolCallId, toolName, input } = part
  if (typeof toolCallId !== 'string') return malformed(state, 'tool-call', 'toolCallId')
  if (typeof toolName !== 'string') return malformed(state, 'tool-call', 'toolName')
  if (typeof input !== 'string') return malformed(state, 'tool-call', 'input')
  // A call without parameters may come with no input at all: that means an empty object.
  const call: ModelEvent = { type: 'tool-call', id: toolCallId, name: toolName, arguments: input || '{}' }
  return { state: { ...state, calls: state.calls + 1 }, events: [call] }
}

const finish = (state: PartsState, part: Record<string, unknown>): PartsStep => {
  const reason = finishOf((part.finishReason as { unified?: unknown } | undefined)?.unified, state.calls > 0)
  if (typeof reason === 'object') return failed(state, reason)
  const usage = usageOf(part.usage)
  return {
    state: { ...state, done: true },
    events: [{ type: 'finish', reason, ...(usage ? { usage } : {}) }],
  }
}

/**
 * `stop`, `tool-calls` and `length` map one to one (`length` is `max-tokens`). `other` (and a reason
 * this version does not know) ends the answer normally, as `tool-calls` when there are calls to
 * run, else `stop`, as the OpenAI adapter does. `error`, `interrupted` and `content-filter` mean
 * the answer is not whole: they fail the request, so the turn does not close on half an answer as
 * if it were complete.
 */
const finishOf = (unified: unknown, hasCalls: boolean): FinishReason | PartsFailure => {
  switch (unified) {
    case 'stop':
      return 'stop'
    case 'length':
      return 'max-tokens'
    case 'tool-calls':
      return 'tool-calls'
    case 'error':
      return {
        kind: 'stream',
        text: "the model stopped with an error (finish reason 'error'); retrying the request may help",
      }
    case 'interrupted':
      return {
        kind: 'stream',
        text:
          "the provider's stream ended without a completion signal (finish reason 'interrupted'), so the " +
          'answer may be incomplete; retrying the request may help',
      }
    case 'content-filter':
      return {
        kind: 'stream',
        text:
          "the provider's content filter stopped the answer (finish reason 'content-filter'); retrying " +
          'will likely give the same answer: change the prompt',
      }
    default:
      return hasCalls ? 'tool-calls' : 'stop'
  }
}

/** The totals, when the provider reported both. */
const usageOf = (usage: unknown): Usage | undefined => {
  type Tokens = { total?: unknown; cacheRead?: unknown } | undefined
  const { inputTokens, outputTokens } = (usage ?? {}) as { inputTokens?: Tokens; outputTokens?: Tokens }
  const input = inputTokens?.total
  const output = outputTokens?.total
  if (!isTokenCount(input) || !isTokenCount(output)) return undefined
  // The part of the prompt read from the provider's cache, when it says (R73).
  const cached = inputTokens?.cacheRead
  return isTokenCount(cached)
    ? { inputTokens: input, outputTokens: output, cachedInputTokens: cached }
    : { inputTokens: input, outputTokens: output }
}

const malformed = (state: PartsState, type: string, key: string): PartsStep =>
  failed(state, {
    kind: 'stream',
    text: `a ${type} part without a string ${key}; the provider package may be too new or too old for this adapter`,
  })

const failed = (state: PartsState, failure: PartsFailure): PartsStep => ({
  state: { ...state, done: true },
  events: [],
  failure,
})
