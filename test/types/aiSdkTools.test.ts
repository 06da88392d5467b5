/**
 * `fromAiSdkTools` in the compiler: what `tool()` from `ai` returns fits it, whatever its input
 * type, and what it returns is what `createAgent({ tools })` takes. This file type-checks with the
 * devDependencies' ai 6 (`npm run typecheck`) and, by `npm run test:ai-sdk-7`, with ai 7 (R87).
 */
import { jsonSchema, tool } from 'ai'
import { describe, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { type AiSdkToolSet, fromAiSdkTools } from '../../src/aisdk.js'
import type { AgentOptions, ToolDefinition } from '../../src/index.js'

const weather = tool({
  description: 'The weather in a city.',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }, { toolCallId, abortSignal, messages }) => ({
    city,
    toolCallId,
    abortSignal,
    messages,
  }),
})
const remove = tool({
  inputSchema: jsonSchema<{ path: string }>({ type: 'object', properties: { path: { type: 'string' } } }),
  needsApproval: async ({ path }) => path.startsWith('/'),
  execute: ({ path }) => `removed ${path}`,
})

describe('R87: fromAiSdkTools takes the tools of the installed ai release', () => {
  it('R87: tool() results of any input type fit, and the result goes to createAgent', () => {
    expectTypeOf({ weather, remove }).toExtend<AiSdkToolSet>()
    const tools = fromAiSdkTools({ weather, remove })
    expectTypeOf(tools).toEqualTypeOf<ToolDefinition[]>()
    expectTypeOf(tools).toExtend<NonNullable<AgentOptions['tools']>>()
    fromAiSdkTools({ weather }, { context: { userId: 'u1' } })
  })

  it('R87: an array of tools, or a tool without inputSchema, is no tool set', () => {
    // Type-checked, never called: at run time each would throw its InvalidInputError.
    const refused = () => {
      // @ts-expect-error the AI SDK's tools go by name, not in an array
      fromAiSdkTools([weather])
      // @ts-expect-error every tool has an inputSchema
      fromAiSdkTools({ weather: { execute: async () => 'sunny' } })
      // @ts-expect-error an option fromAiSdkTools does not have
      fromAiSdkTools({ weather }, { contxt: {} })
    }
    expectTypeOf(refused).toBeFunction()
  })
})
