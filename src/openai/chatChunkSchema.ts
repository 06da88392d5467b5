import * as z from 'zod/mini'

/**
 * One streamed `chat.completion.chunk`, read leniently: compatible servers differ in which fields
 * they send as `null` or leave out, so everything is optional and unknown keys are ignored. Only
 * what the adapter uses is described.
 */
const text = z.nullish(z.string())

export const chatChunkSchema = z.object({
  choices: z.nullish(
    z.array(
      z.object({
        index: z.nullish(z.number()),
        delta: z.nullish(
          z.object({
            content: text,
            // DeepSeek, llama.cpp and older vLLM say `reasoning_content`; OpenRouter, Ollama and newer vLLM
            // `reasoning`.
            reasoning_content: text,
            reasoning: text,
            tool_calls: z.nullish(
              z.array(
                z.object({
                  index: z.nullish(z.int().check(z.nonnegative())),
                  id: text,
                  function: z.nullish(z.object({ name: text, arguments: text })),
                }),
              ),
            ),
          }),
        ),
        finish_reason: text,
      }),
    ),
  ),
  // Read by `usageOf`, which drops what is not a count: a server's bad bookkeeping (a negative or
  // non-numeric count) must not cost the answer it came with (R73).
  usage: z.optional(z.unknown()),
  // Some servers (OpenRouter, vLLM) report a failure inside a 200 stream.
  error: z.nullish(z.union([z.string(), z.looseObject({ message: text })])),
})

export type ChatChunk = z.infer<typeof chatChunkSchema>
export type ToolCallDelta = NonNullable<
  NonNullable<NonNullable<NonNullable<ChatChunk['choices']>[number]['delta']>['tool_calls']>
>[number]
