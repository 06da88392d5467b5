import type { InferOutput, StandardSchemaV1 } from '../contracts/standardSchema.js'
import type { ToolDefinition } from '../contracts/tools.js'

/**
 * Defines a tool with its argument type inferred from its parameters schema (zod, valibot,
 * ArkType or any Standard Schema).
 *
 * @example
 * const weather = defineTool({
 *   name: 'weather',
 *   description: 'The weather in a city.',
 *   parameters: z.object({ city: z.string() }),
 *   execute: async ({ city }) => fetchWeather(city),
 * })
 */
export const defineTool = <S extends StandardSchemaV1, A = unknown>(
  tool: ToolDefinition<A, InferOutput<S>> & { readonly parameters: S },
): ToolDefinition<A, InferOutput<S>> => tool
