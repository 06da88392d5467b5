import { z } from 'zod'

/**
 * One streamed `chat.completion.chunk`, read leniently: compatible servers differ in which fields
 * they send as `null` or leave out, so everything is optional and unknown keys are ignored. Only
 * what the adapter uses is described.
 */
export const chatChunkSchema = z.object({
  choices: z
    .array(
      z.object({
        index: z.number().nullish(),
        delta: z
          .object({
            content: z.string().nullish(),
            // DeepSeek, llama.cpp and older vLLM say `reasoning_content`; OpenRouter, Ollama and newer vLLM
            // `reasoning`.
            reasoning_content: z.string().nullish(),
            reasoning: z.string().nullish(),
            tool_calls: z
              .array(
                z.object({
                  index: z.number().int().nonnegative().nullish(),
                  id: z.string().nullish(),
                  function: z
                    .object({ name: z.string().nullish(), arguments: z.string().nullish() })
                    .nullish(),
                }),
              )
              .nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  // Read by `usageOf`, which drops what is not a count: a server's bad bookkeeping (a negative or
  // non-numeric count) must not cost the answer it came with (R73).
  usage: z.unknown().optional(),
  // Some servers (OpenRouter, vLLM) report a failure inside a 200 stream.
  error: z.union([z.string(), z.object({ message: z.string().nullish() }).loose()]).nullish(),
})

export type ChatChunk = z.infer<typeof chatChunkSchema>
export type ToolCallDelta = NonNullable<
  NonNullable<NonNullable<NonNullable<ChatChunk['choices']>[number]['delta']>['tool_calls']>
>[number]
