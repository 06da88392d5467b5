import { ModelRequestError } from '../adapterKit/ModelRequestError.js'
import { quote } from '../adapterKit/redact.js'
import { isTokenCount } from '../adapterKit/tokenCount.js'
import type { Usage } from '../contracts/messages.js'
import type { FinishReason, ModelEvent } from '../contracts/model.js'
import { safeParse } from '../messages/safeParse.js'
import { type ChatChunk, chatChunkSchema, type ToolCallDelta } from './chatChunkSchema.js'

/** A tool call being assembled from its deltas; `index` is the server's slot for it. */
type ToolCallDraft = {
  readonly index: number
  readonly id: string | undefined
  readonly name: string | undefined
  readonly arguments: string
}

export type ChatStreamState = {
  /** Ids for calls a server sent without one (some local servers do): `<prefix><index>`. */
  readonly idPrefix: string
  /** Strings never to quote in an error (the API key, credential headers): see `redact.ts`. */
  readonly secrets: readonly string[]
  /** Calls so far, in index order. They are emitted only when the stream closes: complete. */
  readonly calls: readonly ToolCallDraft[]
  /** The raw `finish_reason`; held back because usage arrives in a later chunk. */
  readonly finishReason: string | undefined
  readonly usage: Usage | undefined
  /** `[DONE]` seen, the stream closed, or failed: every later input is ignored. */
  readonly done: boolean
}

/** One SSE `data` payload, or the end of the response body. */
export type ChatStreamInput = { readonly type: 'data'; readonly data: string } | { readonly type: 'end' }

export type ChatStreamStep = {
  readonly state: ChatStreamState
  readonly events: readonly ModelEvent[]
  readonly error?: ModelRequestError
}

export const initialChatStream = (idPrefix: string, secrets: readonly string[] = []): ChatStreamState => ({
  idPrefix,
  secrets,
  calls: [],
  finishReason: undefined,
  usage: undefined,
  done: false,
})

/**
 * The Chat Completions stream as a pure reducer: `(state, input) => {state, events, error?}`.
 * Text and reasoning deltas pass straight through; tool-call deltas are assembled by `index`;
 * `finish` (with the usage of the final usage chunk) is emitted when the stream closes, after the
 * complete tool calls. It closes at `[DONE]`, or at the end of the body once a `finish_reason` was
 * seen (servers that omit `[DONE]`); a body that ends before either was dropped mid-stream.
 */
export const reduceChatStream = (state: ChatStreamState, input: ChatStreamInput): ChatStreamStep => {
  if (state.done) return { state, events: [] }
  if (input.type === 'end') return state.finishReason === undefined ? fail(state, dropped) : close(state)
  if (input.data.trim() === '[DONE]') return close(state)
  let json: unknown
  try {
    json = JSON.parse(input.data)
  } catch {
    return fail(state, `malformed JSON in a stream data line: ${quote(input.data, state.secrets, 200)}`)
  }
  const parsed = safeParse(chatChunkSchema, json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const what = quote(String(issue?.message), state.secrets, 200)
    return fail(state, `unexpected chunk at ${issue?.path.join('.') || '(root)'}: ${what}`)
  }
  return onChunk(state, parsed.data)
}

const dropped =
  'the response stream ended before the model finished (no finish_reason, no [DONE]): ' +
  'the connection was dropped mid-stream; retrying the request may help'

const onChunk = (state: ChatStreamState, chunk: ChatChunk): ChatStreamStep => {
  if (chunk.error) {
    const message = typeof chunk.error === 'string' ? chunk.error : chunk.error.message
    const quoted = message ? quote(message, state.secrets, 500) : 'no message'
    return fail(state, `the server reported an error mid-stream: ${quoted}`)
  }
  // Only one choice is asked for (no `n`); a server that numbers it still calls it 0.
  const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0)
  const delta = choice?.delta
  const events: ModelEvent[] = []
  const reasoning = delta?.reasoning_content ?? delta?.reasoning
  if (reasoning) events.push({ type: 'reasoning', text: reasoning })
  if (delta?.content) events.push({ type: 'text', text: delta.content })
  const usage = usageOf(chunk.usage)
  // Usage sent while the answer still streams (a server's continuous usage stats) is passed on at
  // once, so a request cut before its finish keeps it (R69, R73). The usual final usage chunk
  // comes after the finish reason and rides on `finish`.
  if (usage && state.finishReason == null && choice?.finish_reason == null)
    events.push({ type: 'usage', usage })
  const next: ChatStreamState = {
    ...state,
    calls: (delta?.tool_calls ?? []).reduce(mergeToolCall, state.calls),
    finishReason: choice?.finish_reason ?? state.finishReason,
    usage: usage ?? state.usage,
  }
  return { state: next, events }
}

/**
 * The chunk's usage, when it has both counts; the cached part of the prompt when the server says
 * (R73). A value that is no count (negative, not a finite number, a string) is dropped, as the AI
 * SDK adapter drops it: the request's usage is then estimated, and the answer is kept.
 */
const usageOf = (usage: unknown): Usage | undefined => {
  type Counts = { prompt_tokens?: unknown; completion_tokens?: unknown; prompt_tokens_details?: unknown }
  if (typeof usage !== 'object' || usage === null) return undefined
  const { prompt_tokens: input, completion_tokens: output, prompt_tokens_details: details } = usage as Counts
  if (!isTokenCount(input) || !isTokenCount(output)) return undefined
  const cached = (details as { cached_tokens?: unknown } | null | undefined)?.cached_tokens
  return isTokenCount(cached)
    ? { inputTokens: input, outputTokens: output, cachedInputTokens: cached }
    : { inputTokens: input, outputTokens: output }
}

/**
 * The slot a delta belongs to. Servers send `index`; for one that does not, a new id opens a new
 * call and anything else continues the last one.
 */
const slotOf = (calls: readonly ToolCallDraft[], delta: ToolCallDelta): number => {
  if (typeof delta.index === 'number') return delta.index
  const last = calls.at(-1)
  if (last && (!delta.id || delta.id === last.id)) return last.index
  return (last?.index ?? -1) + 1
}

/** The id and name come in the first delta of a call (the first non-empty wins); arguments concatenate. */
const mergeToolCall = (calls: readonly ToolCallDraft[], delta: ToolCallDelta): readonly ToolCallDraft[] => {
  const index = slotOf(calls, delta)
  const old = calls.find((c) => c.index === index)
  const merged: ToolCallDraft = {
    index,
    id: old?.id || delta.id || undefined,
    name: old?.name || delta.function?.name || undefined,
    arguments: (old?.arguments ?? '') + (delta.function?.arguments ?? ''),
  }
  return old
    ? calls.map((c) => (c === old ? merged : c))
    : [...calls, merged].sort((a, b) => a.index - b.index)
}

const close = (state: ChatStreamState): ChatStreamStep => {
  const unnamed = state.calls.find((c) => !c.name)
  if (unnamed) return fail(state, `tool call ${unnamed.index} of the stream has no function name`)
  const events: ModelEvent[] = state.calls.map((c) => ({
    type: 'tool-call',
    id: c.id ?? `${state.idPrefix}${c.index}`,
    name: c.name ?? '',
    // A call without parameters may stream no arguments at all: that means an empty object.
    arguments: c.arguments === '' ? '{}' : c.arguments,
  }))
  const reason = finishReasonOf(state.finishReason, state.calls.length > 0)
  events.push({ type: 'finish', reason, ...(state.usage ? { usage: state.usage } : {}) })
  return { state: { ...state, done: true }, events }
}

/**
 * `stop`, `tool_calls` (and the legacy `function_call`) and `length` map one to one. Anything else
 * (`content_filter`, a server's own reason, none before `[DONE]`) ends the answer normally: as
 * `tool-calls` when there are calls to run, else `stop`.
 */
const finishReasonOf = (raw: string | undefined, hasCalls: boolean): FinishReason => {
  switch (raw) {
    case 'stop':
      return 'stop'
    case 'length':
      return 'max-tokens'
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls'
    default:
      return hasCalls ? 'tool-calls' : 'stop'
  }
}

const fail = (state: ChatStreamState, message: string): ChatStreamStep => ({
  state: { ...state, done: true },
  events: [],
  error: new ModelRequestError(`openaiModel: ${message}`),
})
