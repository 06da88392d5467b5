/**
 * Run-time validation of message data a caller hands in (R1, R2): the prompt of a send, a prompt
 * decision's `additionalContexts`, a tool's `ctx.context(input)`. Each parser returns deep-frozen
 * data or throws `InvalidInputError`; nothing else happens before it returns, so a refused call
 * leaves no trace.
 */
import { InvalidInputError } from '../contracts/errors.js'
import type { MessageSource, UserMessageData } from '../contracts/messages.js'
import { goalMessageIssue, goalStateTextIssue, isGoalStateText } from './goalMessageIssue.js'
import { guarded, isRefusal } from './guarded.js'
import { withHints } from './hints.js'
import { DEFAULT_MAX_BLOCK_BYTES, oversizeIssues } from './mediaBlocks.js'
import { safeParse } from './safeParse.js'
import { userMessageDataSchema } from './schemas.js'
import { deepFreeze, isPlainObject, jsonSnapshot, type Path, unreadable } from './snapshot.js'
import { toInputIssues } from './toInputIssues.js'
import { userSource, userText } from './userText.js'
import { userTextFastPath } from './userTextFastPath.js'

/**
 * Validates `UserMessageData` given where a string means "text from `defaultSource`": the prompt
 * of `send` (user), `additionalContexts` of a prompt decision, a tool's `ctx.context(input)`
 * (`{kind:'tool', tool: name}`).
 *
 * 1. A string `s` becomes `{content: [{type: 'text', text: s}], source: defaultSource}` (empty
 *    strings are allowed; `defaultSource` is deep-frozen in place).
 * 2. Otherwise the input must be a plain object; only its `content` and `source` are read, so
 *    other top-level keys (an `id`, say) are ignored and an `AgentMessage` can be sent again.
 * 3. Those two are snapshotted (deep copy, non-JSON refused with a path), then checked against
 *    `userMessageDataSchema`.
 * 4. An image or file block over `maxBlockBytes` (the agent's option, R86) is refused.
 * 5. A message that `decodeGoalEvent` would throw on (R33: `<goal_state>` text from a non-goal
 *    source, a round-0 goal source that is not a canonical change), or a continuation round
 *    that carries a `change`, is refused, string shorthand included.
 *
 * @returns a deep-frozen object with exactly the keys `content` and `source`.
 * @throws InvalidInputError naming `call` and the paths, which start with `root`.
 */
export const parseContextInput = (
  input: unknown,
  defaultSource: MessageSource,
  call: string,
  root: string | Path = 'input',
  maxBlockBytes = DEFAULT_MAX_BLOCK_BYTES,
): UserMessageData => {
  const rootPath = typeof root === 'string' ? [root] : root
  if (defaultSource === userSource) {
    const value = parseUserValue(input, call, rootPath, maxBlockBytes)
    return typeof value === 'string' ? userText(value) : value
  }
  if (typeof input === 'string') {
    if (isGoalStateText(input)) throw new InvalidInputError(call, [goalStateTextIssue(rootPath)])
    const text = Object.freeze({ type: 'text', text: input } as const)
    return Object.freeze({ content: Object.freeze([text]), source: deepFreeze(defaultSource) })
  }
  return guarded(call, rootPath, () =>
    parseContextData(plainInput(input, call, rootPath), call, rootPath, maxBlockBytes),
  )
}

/** Input from the user: the string of the shorthand when the value is its, else the data. */
export const parseUserValue = (
  input: unknown,
  call: string,
  rootPath: Path,
  maxBlockBytes = DEFAULT_MAX_BLOCK_BYTES,
): string | UserMessageData => {
  if (typeof input === 'string') {
    if (isGoalStateText(input)) throw new InvalidInputError(call, [goalStateTextIssue(rootPath)])
    return input
  }
  // `guarded`, inlined: this runs per send, and the closure would be made per send.
  try {
    const { content, source } = plainInput(input, call, rootPath)
    return (
      userTextFastPath(content, source) ??
      parseContextData({ content, source }, call, rootPath, maxBlockBytes)
    )
  } catch (error) {
    if (isRefusal(error)) throw error
    throw new InvalidInputError(call, [{ path: rootPath, message: unreadable(error) }])
  }
}

const plainInput = (input: unknown, call: string, rootPath: Path): Record<string, unknown> => {
  if (isPlainObject(input)) return input
  const message =
    input === undefined
      ? 'required: a string, or {content, source}'
      : 'expected a string or a plain object {content, source}'
  throw new InvalidInputError(call, [{ path: rootPath, message }])
}

/** The full path for a plain object: snapshot, then the zod schema (exported for the tests). */
export const parseContextData = (
  input: { readonly content?: unknown; readonly source?: unknown },
  call: string,
  rootPath: Path,
  maxBlockBytes = DEFAULT_MAX_BLOCK_BYTES,
): UserMessageData => {
  const snapshot = jsonSnapshot({ content: input.content, source: input.source }, rootPath)
  if (!snapshot.ok) throw new InvalidInputError(call, snapshot.issues)
  const result = safeParse(userMessageDataSchema, snapshot.value)
  if (!result.success) {
    const value = snapshot.value as Record<string, unknown>
    const issues = toInputIssues(result.error, rootPath, value, userMessageDataSchema)
    throw new InvalidInputError(
      call,
      withHints(issues, (at) => value[at.slice(at.indexOf('.') + 1)]),
    )
  }
  // The schemas neither strip nor transform, so the frozen snapshot is the validated value.
  const data = snapshot.value as UserMessageData
  const oversize = oversizeIssues(data.content, maxBlockBytes, [...rootPath, 'content'])
  if (oversize.length > 0) throw new InvalidInputError(call, oversize)
  // A goal message that would not decode would break every goal fold of the transcript (R33).
  const goal = goalMessageIssue(data.content, data.source)
  if (goal) throw new InvalidInputError(call, [{ path: [...rootPath, ...goal.path], message: goal.message }])
  return data
}
