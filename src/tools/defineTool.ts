import type { z } from 'zod'
import type { ToolDefinition } from '../contracts/tools.js'

/** Defines a tool with its argument type inferred from the schema. */
export const defineTool = <S extends z.ZodType, A = unknown>(
  tool: ToolDefinition<A, S>,
): ToolDefinition<A, S> => tool
