import type { ToolCallBlock, ToolResultBlock } from '../contracts/messages.js'
import type { StandardSchemaIssue, StandardSchemaResult } from '../contracts/standardSchema.js'
import type { ToolDefinition } from '../contracts/tools.js'
import { errorText } from '../messages/errorText.js'
import { errorResult } from './toolResult.js'

/** The arguments of a call, ready for `execute`, or the result that tells the model what was wrong. */
export type Checked =
  | { readonly ok: true; readonly args: unknown }
  | { readonly ok: false; readonly result: ToolResultBlock }

const invalid = (call: ToolCallBlock, text: string): Checked => ({
  ok: false,
  result: errorResult(call.id, 'INVALID_ARGUMENTS', text),
})

const pathOf = (issue: StandardSchemaIssue): string =>
  issue.path?.length
    ? issue.path.map((key) => String(typeof key === 'object' && key !== null ? key.key : key)).join('.')
    : '(root)'

const fromResult = <A>(
  call: ToolCallBlock,
  tool: ToolDefinition<A>,
  result: StandardSchemaResult<unknown>,
): Checked => {
  if (!result.issues) return { ok: true, args: result.value }
  const issues = result.issues.map((issue) => `${pathOf(issue)}: ${errorText(issue.message)}`)
  return invalid(call, `Arguments do not match the parameters of "${tool.name}": ${issues.join('; ')}`)
}

/** A refinement or transform of the tool's own schema threw: the model can still fix its call. */
const checkFailed = <A>(call: ToolCallBlock, tool: ToolDefinition<A>, error: unknown): Checked =>
  invalid(call, `Checking the arguments of "${tool.name}" failed: ${errorText(error)}`)

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as { then?: unknown } | null)?.then === 'function'

/**
 * R21b: the arguments must be JSON and valid for the tool's schema (validated through
 * `~standard.validate`, so any Standard Schema works); otherwise an `INVALID_ARGUMENTS` result
 * says what was wrong. An asynchronous schema gives a Promise of the answer. Whatever the
 * schema throws, or its Promise rejects with, is such a result too.
 */
export const checkArguments = <A>(
  call: ToolCallBlock,
  tool: ToolDefinition<A>,
): Checked | PromiseLike<Checked> => {
  let raw: unknown
  try {
    raw = JSON.parse(call.arguments)
  } catch (error) {
    return invalid(call, `Arguments are not valid JSON: ${errorText(error)}`)
  }
  try {
    const result = tool.parameters['~standard'].validate(raw)
    if (!isThenable(result)) return fromResult(call, tool, result)
    return Promise.resolve(result).then(
      (settled) => fromResult(call, tool, settled as StandardSchemaResult<unknown>),
      (error: unknown) => checkFailed(call, tool, error),
    )
  } catch (error) {
    return checkFailed(call, tool, error)
  }
}
