/**
 * `fromAiSdkTools`: tools made with the AI SDK's own `tool()` and `jsonSchema()` from `ai`, run by
 * an agent on `fromLanguageModel` with the AI SDK's test model. On the devDependencies these are
 * ai 6's (the release of Node 20); `npm run test:ai-sdk-7` runs the same file on ai 7's.
 */
import { jsonSchema, tool } from 'ai'
import { asapScheduler, filter, firstValueFrom } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { fromAiSdkTools, fromLanguageModel } from '../../src/aisdk.js'
import { createAgent, InvalidInputError, type Message } from '../../src/index.js'
import { MockLanguageModelV4 } from '../support/aisdkModels.js'
import { answer, finish, text, toolCall } from '../support/aisdkParts.js'

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] })

/** A model that calls `name` with `input` once, then answers "Done.". */
const callingModel = (name: string, input: string) =>
  new MockLanguageModelV4({
    doStream: [
      answer(toolCall('call_1', name, input), finish('tool-calls')),
      answer(text('t1', 'Done.'), finish('stop')),
    ],
  })

/** The tool result the second request carried back to the model. */
const resultSent = (model: ReturnType<typeof callingModel>) =>
  model.doStreamCalls[1]?.prompt.find((m) => m.role === 'tool')?.content[0]

describe('fromAiSdkTools: AI SDK tools run as steerable tools', () => {
  it('R21b: a tool() with a zod inputSchema: the model sees its JSON Schema; execute gets the input and the AI SDK call options', async () => {
    const seen: unknown[] = []
    const tools = fromAiSdkTools({
      add: tool({
        description: 'Adds two numbers.',
        inputSchema: z.object({ a: z.number(), b: z.number() }),
        execute: async ({ a, b }, options) => {
          seen.push(options.toolCallId, options.abortSignal instanceof AbortSignal, options.messages)
          return { sum: a + b }
        },
      }),
    })
    const model = callingModel('add', '{"a":2,"b":3}')
    const agent = createAgent({ model: fromLanguageModel(model), tools, scheduler: asapScheduler })
    agent.followup('What is 2+3?')
    await agent.whenIdle()
    expect(model.doStreamCalls[0]?.tools).toEqual([
      expect.objectContaining({
        type: 'function',
        name: 'add',
        description: 'Adds two numbers.',
        inputSchema: expect.objectContaining({ type: 'object', required: ['a', 'b'] }),
      }),
    ])
    expect(seen).toEqual([
      'call_1',
      true,
      [{ role: 'user', content: [{ type: 'text', text: 'What is 2+3?' }] }],
    ])
    expect(resultSent(model)).toMatchObject({
      toolCallId: 'call_1',
      output: { type: 'text', value: '{"sum":5}' },
    })
    await agent.dispose()
  })

  it('R21b: a jsonSchema() inputSchema with validate: arguments it refuses never reach execute, and the model is told', async () => {
    let ran = false
    const tools = fromAiSdkTools({
      weather: tool({
        description: 'The weather in a city.',
        inputSchema: jsonSchema<{ city: string }>(
          { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          {
            validate: (value) =>
              typeof (value as { city?: unknown }).city === 'string'
                ? { success: true, value: value as { city: string } }
                : { success: false, error: new Error('city must be a string') },
          },
        ),
        execute: async () => {
          ran = true
          return 'sunny'
        },
      }),
    })
    expect(tools[0]?.parameters['~standard'].jsonSchema?.output({ target: 'draft-2020-12' })).toEqual({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    })
    const model = callingModel('weather', '{"city":7}')
    const agent = createAgent({ model: fromLanguageModel(model), tools, scheduler: asapScheduler })
    agent.followup('Weather?')
    await agent.whenIdle()
    expect(ran).toBe(false)
    expect(resultSent(model)).toMatchObject({ output: { type: 'error-text' } })
    expect(JSON.stringify(resultSent(model))).toContain('city must be a string')
    await agent.dispose()
  })

  it('R61: needsApproval: the call waits for agent.approve; a predicate gets the input and {toolCallId, messages}', async () => {
    const asked: unknown[] = []
    const tools = fromAiSdkTools({
      remove: tool({
        description: 'Removes a file.',
        inputSchema: z.object({ path: z.string() }),
        needsApproval: async ({ path }, options) => {
          asked.push(path, options.toolCallId, options.messages.length)
          return true
        },
        execute: async ({ path }) => `removed ${path}`,
      }),
    })
    const model = callingModel('remove', '{"path":"a.txt"}')
    const agent = createAgent({ model: fromLanguageModel(model), tools, scheduler: asapScheduler })
    agent.followup('Remove a.txt')
    await firstValueFrom(agent.approvals$.pipe(filter((pending) => pending.length > 0)))
    expect(asked).toEqual(['a.txt', 'call_1', 1])
    expect(model.doStreamCalls).toHaveLength(1)
    agent.approve('call_1')
    await agent.whenIdle()
    expect(resultSent(model)).toMatchObject({ output: { type: 'text', value: 'removed a.txt' } })
    await agent.dispose()
  })

  it('an execute that streams (AsyncIterable): the last value is the result; toModelOutput makes what the model is told', async () => {
    const tools = fromAiSdkTools({
      count: tool({
        description: 'Counts to three.',
        inputSchema: z.object({}),
        async *execute() {
          yield 1
          yield 2
          yield 3
        },
        toModelOutput: ({ output, toolCallId }) => ({ type: 'text', value: `${toolCallId}: ${output}` }),
      }),
    })
    const model = callingModel('count', '{}')
    const agent = createAgent({ model: fromLanguageModel(model), tools, scheduler: asapScheduler })
    agent.followup('Count')
    await agent.whenIdle()
    expect(resultSent(model)).toMatchObject({ output: { type: 'text', value: 'call_1: 3' } })
    expect(agent.session.messages().slice(0, 1)).toEqual([user('Count')])
    await agent.dispose()
  })

  it('R2: what is no AI SDK tool set is one InvalidInputError that lists each problem and says what to pass', () => {
    const refused = (run: () => unknown) => {
      try {
        run()
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidInputError)
        return (error as InvalidInputError).issues.map((i) => `${i.path.join('.')}: ${i.message}`)
      }
      throw new Error('expected a refusal')
    }
    const noExecute = { description: 'x', inputSchema: z.object({}) }
    const provider = { type: 'provider', id: 'anthropic.web_search', args: {}, inputSchema: z.object({}) }
    const noSchema = { description: 'x', inputSchema: { type: 'object' }, execute: () => 1 }
    const issues = refused(() => fromAiSdkTools({ noExecute, provider, noSchema } as never))
    expect(issues).toEqual([
      expect.stringMatching(/^tools\.noExecute\.execute: expected a function: steerable runs each tool/),
      expect.stringMatching(/^tools\.provider\.type: a provider tool runs at the provider/),
      expect.stringMatching(
        /^tools\.noSchema\.inputSchema: the schema of tool "noSchema": expected a zod schema/,
      ),
    ])
    const weather = tool({ inputSchema: z.object({}), execute: async () => 'sunny' })
    expect(refused(() => fromAiSdkTools([weather] as never))).toEqual([
      expect.stringMatching(/^tools: expected an object of AI SDK tools by name.*as an array$/),
    ])
  })

  it('R2: createAgent given an AI SDK tool as it is says to wrap it with fromAiSdkTools', () => {
    const weather = tool({ description: 'x', inputSchema: z.object({}), execute: async () => 'sunny' })
    const model = fromLanguageModel(callingModel('weather', '{}'))
    expect(() => createAgent({ model, tools: [weather as never] })).toThrow(/fromAiSdkTools/)
    expect(() => createAgent({ model, tools: { weather } as never })).toThrow(/fromAiSdkTools/)
  })
})
