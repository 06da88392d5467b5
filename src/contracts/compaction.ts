import type { ObservableInput } from 'rxjs'
import type { ContentBlock, Message } from './messages.js'

/**
 * Writes the summary that replaces older messages (R74). It is given exactly the messages before
 * the kept tail, as `session.messages()` has them: never one that was not yet delivered. Every
 * value it emits is part of the summary, in order (so a streamed summary works); the summary must
 * be text, and not empty. `signal` aborts when `cancel()` or `dispose()` stops the compaction.
 */
export type Summarizer = (
  messages: readonly Message[],
  context: { readonly signal: AbortSignal },
) => ObservableInput<string | readonly ContentBlock[]>

/** `agent.compact(options)` (R74): each option overrides the agent's `compaction` option. */
export type CompactOptions = {
  /** How many of the last turns stay as they are, after the summary. Default 1. */
  readonly keepLastTurns?: number
  /** Default: the agent's `compaction.summarize`, else its own model with a built-in prompt. */
  readonly summarize?: Summarizer
}

/** The agent option `compaction` (R76): compacts by itself when a turn's prompt grew too large. */
export type CompactionOptions = CompactOptions & {
  /**
   * After a turn whose last request's `inputTokens` (R73) exceeded this, a compaction runs
   * before the next admission. Without it, only `compact()` compacts.
   */
  readonly whenInputTokensExceed?: number
}
