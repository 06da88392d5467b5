import { concatMap, defer, from, map, of } from 'rxjs'
import type { Agent } from '../contracts/agent.js'
import type { Message } from '../contracts/messages.js'
import type { StandardSchemaV1 } from '../contracts/standardSchema.js'
import type { ApprovalContext, ToolContext, ToolDefinition } from '../contracts/tools.js'
import { checkInput, type InputCheck } from '../messages/checkInput.js'
import { errorText } from '../messages/errorText.js'
import { parametersJsonSchema } from '../messages/parametersJsonSchema.js'
import type { Path } from '../messages/snapshot.js'
import { parametersOf } from './aiSdkSchema.js'
import type { AiSdkTool, AiSdkToolSet, FromAiSdkToolsOptions } from './aiSdkTool.js'
import { modelOutputResult, outputOf, plainOutput } from './aiSdkToolOutput.js'
import { toPrompt } from './toPrompt.js'

// The functions of a checked tool, called with the options the AI SDK would pass.
type Call = (input: unknown, options: object) => unknown
type Checked = {
  readonly name: string
  readonly description: string
  readonly parameters: StandardSchemaV1
  readonly execute: Call
  readonly needsApproval: boolean | Call | undefined
  readonly toModelOutput: ((options: object) => unknown) | undefined
}

const EXAMPLE = '{ weather: tool({ description, inputSchema: z.object({ city: z.string() }), execute }) }'

/**
 * The messages the AI SDK hands a tool (`options.messages`): the conversation before the
 * assistant message that made this call, without the system text, in the AI SDK's message shape
 * (text, tool calls, tool results, and files as ai 6 spells them). Made when read.
 */
const messagesBefore = (agent: unknown, callId: string) => {
  const all: readonly Message[] = (agent as Agent).session.messages()
  let end = all.length
  for (let i = all.length - 1; i >= 0; i--)
    if (
      all[i]?.role === 'assistant' &&
      all[i]?.content.some((b) => b.type === 'tool-call' && b.id === callId)
    ) {
      end = i
      break
    }
  return toPrompt(undefined, all.slice(0, end), 'v3')
}

const callOptions = (agent: unknown, callId: string, context: unknown, signal?: () => AbortSignal) => ({
  toolCallId: callId,
  get messages() {
    return messagesBefore(agent, callId)
  },
  // Read when the tool reads it: steerable makes a call's signal on first read.
  ...(signal
    ? {
        get abortSignal() {
          return signal()
        },
      }
    : {}),
  context,
  experimental_context: context,
})

/** One AI SDK tool as steerable's tool definition. */
const toDefinition = <A>(tool: Checked, context: unknown): ToolDefinition<A> => {
  const { execute, needsApproval, toModelOutput } = tool
  const definition: ToolDefinition<A> = {
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    execute: (input: unknown, ctx: ToolContext<A>) =>
      defer(() =>
        outputOf(
          execute(
            input,
            callOptions(ctx.agent, ctx.callId, context, () => ctx.signal),
          ),
        ),
      ).pipe(
        concatMap((output) =>
          toModelOutput === undefined
            ? of(plainOutput(output))
            : defer(() =>
                from(Promise.resolve(toModelOutput({ toolCallId: ctx.callId, input, output }))),
              ).pipe(map(modelOutputResult)),
        ),
      ),
  }
  if (needsApproval === undefined || needsApproval === false) return definition
  return {
    ...definition,
    needsApproval:
      needsApproval === true
        ? true
        : (input: unknown, ctx: ApprovalContext<A>) =>
            needsApproval(input, callOptions(ctx.agent, ctx.callId, context)) as
              | boolean
              | PromiseLike<boolean>,
  }
}

const optionalFunction = (value: unknown) => value === undefined || typeof value === 'function'

/** One tool, checked under `at`: what `toDefinition` needs, or `undefined` with its problems recorded. */
const checkTool = (check: InputCheck, name: string, value: unknown, at: Path, context: unknown) => {
  if (typeof value !== 'object' || value === null)
    return void check.add(at, `expected an AI SDK tool, tool({ inputSchema, execute }) from 'ai'`)
  const tool = value as Record<keyof AiSdkTool, unknown>
  if (tool.type === 'provider')
    return void check.add(
      [...at, 'type'],
      'a provider tool runs at the provider, and steerable sends the model only the tools it runs itself: ' +
        'leave it out, or write the tool with tool({ inputSchema, execute })',
    )
  if (typeof tool.execute !== 'function')
    check.add(
      [...at, 'execute'],
      'expected a function: steerable runs each tool the model calls, so a tool without execute (one the ' +
        'app answers in the AI SDK) cannot be one here',
    )
  if (!(typeof tool.needsApproval === 'boolean' || optionalFunction(tool.needsApproval)))
    check.add([...at, 'needsApproval'], 'expected true, false, or a function (input, options) => boolean')
  if (!optionalFunction(tool.toModelOutput)) check.add([...at, 'toModelOutput'], 'expected a function')
  const description = check.attempt([...at, 'description'], () =>
    typeof tool.description === 'function' ? tool.description({ context }) : (tool.description ?? ''),
  )
  if (typeof description !== 'string') check.add([...at, 'description'], 'expected a string')
  const parameters = check.attempt([...at, 'inputSchema'], () => {
    try {
      const schema = parametersOf(tool.inputSchema)
      parametersJsonSchema(schema)
      return schema
    } catch (error) {
      check.add([...at, 'inputSchema'], `the schema of tool "${name}": ${errorText(error)}`)
      return undefined
    }
  })
  if (parameters === undefined || typeof description !== 'string' || typeof tool.execute !== 'function')
    return
  return {
    name,
    description,
    parameters,
    execute: tool.execute as Call,
    needsApproval: tool.needsApproval as Checked['needsApproval'],
    toModelOutput: tool.toModelOutput as Checked['toModelOutput'],
  }
}

/**
 * Turns AI SDK tools (`tool({...})` from `ai`, of ai 6 or 7) into steerable tool definitions, for
 * `createAgent({ tools })`. Each key is the tool's name.
 *
 * - `inputSchema` (zod, any Standard Schema, or `jsonSchema()`/`zodSchema()` from `ai`) gives the
 *   JSON Schema the model sees and validates the arguments before `execute` runs (R21b).
 * - `execute(input, {toolCallId, abortSignal, messages, context})` runs as the tool: the signal
 *   aborts with the turn or a cancel of the call (R25, R71); `messages` is the conversation before
 *   the call, without the system text. Its value, Promise or AsyncIterable (the last value
 *   counts) is the result: a string as text, any other value as its JSON text, or what
 *   `toModelOutput({toolCallId, input, output})` makes of it.
 * - `needsApproval` (`true` or a function of the input) makes each call wait for
 *   `agent.approve(callId)` (R61).
 *
 * @throws InvalidInputError listing every problem: not an object of tools by name, a tool without
 *   `execute`, a provider tool, an `inputSchema` that gives no JSON Schema.
 */
export const fromAiSdkTools = <A = Agent>(
  tools: AiSdkToolSet,
  options: FromAiSdkToolsOptions = {},
): ToolDefinition<A>[] =>
  checkInput('fromAiSdkTools()', (check) => {
    if (typeof options !== 'object' || options === null)
      check.add(['options'], 'expected an object such as { context }, or no options')
    else check.knownKeys(options, ['context'], ['options'])
    const context = (options as FromAiSdkToolsOptions | null)?.context ?? {}
    if (typeof tools !== 'object' || tools === null || Array.isArray(tools)) {
      check.add(
        ['tools'],
        `expected an object of AI SDK tools by name, as the AI SDK's tools option takes them: ${EXAMPLE}` +
          (Array.isArray(tools)
            ? "; steerable's own tool definitions go to createAgent({ tools }) as an array"
            : ''),
      )
      return []
    }
    const checked = Object.entries(tools).map(([name, tool]) =>
      checkTool(check, name, tool, ['tools', name], context),
    )
    return checked.flatMap((tool) => (tool === undefined ? [] : [toDefinition<A>(tool, context)]))
  })
