/**
 * Stream parts of the AI SDK's provider interface, for tests with its own test models
 * (`MockLanguageModelV4` / `V3`, test/support/aisdkModels.ts): text, reasoning and tool calls as a
 * provider streams them (start, deltas, end), finish with usage, and a stream the test feeds by
 * hand.
 */
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from '@ai-sdk/provider'
import { convertArrayToReadableStream } from 'ai/test'

export type Part = LanguageModelV3StreamPart

export const usage = (input: number, output: number): LanguageModelV3Usage => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
})

export const text = (id: string, ...deltas: string[]): Part[] => [
  { type: 'text-start', id },
  ...deltas.map((delta): Part => ({ type: 'text-delta', id, delta })),
  { type: 'text-end', id },
]

export const reasoning = (id: string, ...deltas: string[]): Part[] => [
  { type: 'reasoning-start', id },
  ...deltas.map((delta): Part => ({ type: 'reasoning-delta', id, delta })),
  { type: 'reasoning-end', id },
]

/** A tool call as providers stream it: its input in deltas, then the complete call. */
export const toolCall = (toolCallId: string, toolName: string, input: string): Part[] => [
  { type: 'tool-input-start', id: toolCallId, toolName },
  { type: 'tool-input-delta', id: toolCallId, delta: input },
  { type: 'tool-input-end', id: toolCallId },
  { type: 'tool-call', toolCallId, toolName, input },
]

// `interrupted` is a reason of version 4 only (the devDependencies' types are version 3's).
type Unified = Extract<Part, { type: 'finish' }>['finishReason']['unified'] | 'interrupted'

export const finish = (unified: Unified, used: LanguageModelV3Usage = usage(3, 5)): Part =>
  ({ type: 'finish', finishReason: { unified, raw: `raw-${unified}` }, usage: used }) as Part

/** One `doStream` result: `stream-start`, then these parts, then the end of the stream. */
export const answer = (...parts: (Part | readonly Part[])[]) => ({
  stream: convertArrayToReadableStream<Part>([{ type: 'stream-start', warnings: [] }, ...parts.flat()]),
})

/**
 * A stream the test feeds by hand. Like a provider's fetch, it errors with the abort reason when
 * the call's `abortSignal` aborts; `cancelled` resolves when the reader cancels it.
 */
export const liveStream = (options: LanguageModelV3CallOptions) => {
  let controller!: ReadableStreamDefaultController<Part>
  let cancel!: () => void
  const cancelled = new Promise<void>((resolve) => {
    cancel = resolve
  })
  const stream = new ReadableStream<Part>({
    start: (c) => {
      controller = c
    },
    cancel: () => cancel(),
  })
  const signal = options.abortSignal
  signal?.addEventListener('abort', () => controller.error(signal.reason), { once: true })
  return {
    stream,
    cancelled,
    push: (...parts: (Part | readonly Part[])[]) => {
      for (const part of parts.flat()) controller.enqueue(part)
    },
    end: () => controller.close(),
    fail: (error: unknown) => controller.error(error),
  }
}
