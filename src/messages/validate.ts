/**
 * Run-time validation of everything a caller hands to the delivery surface (R1, R2, V4, V5).
 * Each parser returns deep-frozen data or throws `InvalidInputError`; nothing else happens before
 * it returns, so a refused call leaves no trace.
 */
import { type InputIssue, InvalidInputError } from '../contracts/errors.js'
import type {
  AgentCancelCause,
  CancelOptions,
  ContentBlock,
  MessageSource,
  SendOptions,
  UserMessageData,
} from '../contracts/messages.js'
import { goalMessageIssue, goalStateTextIssue, isGoalStateText } from './goalMessageIssue.js'
import { withHints } from './hints.js'
import {
  cancelCauseSchema,
  cancelOptionsSchema,
  presetOptionsSchema,
  sendOptionsSchema,
  steerOptionsSchema,
  userMessageDataSchema,
} from './schemas.js'
import { deepFreeze, isPlainObject, jsonSnapshot, type Path, unreadable } from './snapshot.js'
import { toInputIssues } from './toInputIssues.js'
import { userSource, userText } from './userText.js'

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
 * 4. A message that `decodeGoalEvent` would throw on (R33: `<goal_state>` text from a non-goal
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
): UserMessageData => {
  const rootPath = typeof root === 'string' ? [root] : root
  if (defaultSource === userSource) {
    const value = parseUserValue(input, call, rootPath)
    return typeof value === 'string' ? userText(value) : value
  }
  if (typeof input === 'string') {
    if (isGoalStateText(input)) throw new InvalidInputError(call, [goalStateTextIssue(rootPath)])
    const text = Object.freeze({ type: 'text', text: input } as const)
    return Object.freeze({ content: Object.freeze([text]), source: deepFreeze(defaultSource) })
  }
  return guarded(call, rootPath, () => parseContextData(plainInput(input, call, rootPath), call, rootPath))
}

/** Whether `error` is our own refusal; `instanceof` itself throws on a revoked Proxy. */
const isRefusal = (error: unknown): boolean => {
  try {
    return error instanceof InvalidInputError
  } catch {
    return false
  }
}

/**
 * Runs a parse of caller data. Reading that data may run the caller's code (a getter, a Proxy
 * trap), which may throw anything: that is bad input like any other (R2), refused with
 * `InvalidInputError` at `path` instead of escaping as the raw error.
 */
const guarded = <T>(call: string, path: Path, parse: () => T): T => {
  try {
    return parse()
  } catch (error) {
    if (isRefusal(error)) throw error
    throw new InvalidInputError(call, [{ path, message: unreadable(error) }])
  }
}

/** Input from the user: the string of the shorthand when the value is its, else the data. */
const parseUserValue = (input: unknown, call: string, rootPath: Path): string | UserMessageData => {
  if (typeof input === 'string') {
    if (isGoalStateText(input)) throw new InvalidInputError(call, [goalStateTextIssue(rootPath)])
    return input
  }
  // `guarded`, inlined: this runs per send, and the closure would be made per send.
  try {
    const { content, source } = plainInput(input, call, rootPath)
    return userTextFastPath(content, source) ?? parseContextData({ content, source }, call, rootPath)
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
): UserMessageData => {
  const snapshot = jsonSnapshot({ content: input.content, source: input.source }, rootPath)
  if (!snapshot.ok) throw new InvalidInputError(call, snapshot.issues)
  const result = userMessageDataSchema.safeParse(snapshot.value)
  if (!result.success) {
    const value = snapshot.value as Record<string, unknown>
    const issues = toInputIssues(result.error, rootPath, value)
    throw new InvalidInputError(
      call,
      withHints(issues, (at) => value[at.slice(at.indexOf('.') + 1)]),
    )
  }
  // The schemas neither strip nor transform, so the frozen snapshot is the validated value.
  const data = snapshot.value as UserMessageData
  // A goal message that would not decode would break every goal fold of the transcript (R33).
  const goal = goalMessageIssue(data.content, data.source)
  if (goal) throw new InvalidInputError(call, [{ path: [...rootPath, ...goal.path], message: goal.message }])
  return data
}

/**
 * The common send, text blocks from the user: `{content: [{type: 'text', text}, …], source:
 * {kind: 'user'}}`, checked and copied by hand (docs/performance.md#the-user-text-fast-path).
 * Anything else, valid or not, gives `undefined` and takes the full path, which also words the
 * errors; what this accepts, the full path accepts with an equal result (a property test says so).
 *
 * @returns the string `s` when the value is exactly the shorthand's for `s` (one text block, keys
 * in the order `type`, `text`), so such a send costs what the string form costs and is queued as
 * compactly; else the deep-frozen data, or `undefined`.
 */
export const userTextFastPath = (content: unknown, source: unknown): UserMessageData | string | undefined => {
  if (!Array.isArray(content) || Object.getPrototypeOf(content) !== Array.prototype) return undefined
  if (
    content.length === 0 ||
    keyOrder(source, 'kind', 'kind') === NOT ||
    (source as { kind: unknown }).kind !== 'user'
  )
    return undefined
  let blocks: ContentBlock[] | undefined
  for (let i = 0; i < content.length; i++) {
    const block: unknown = content[i]
    const order = keyOrder(block, 'type', 'text')
    if (order === NOT) return undefined
    const { type, text } = block as { type: unknown; text: unknown }
    if (type !== 'text' || typeof text !== 'string') return undefined
    // Text that claims to be goal state takes the full path, which refuses it (R33).
    if (i === 0 && isGoalStateText(text)) return undefined
    if (order === FIRST && content.length === 1) return text
    blocks ??= new Array<ContentBlock>(content.length)
    // Keys in the caller's order, as the full path's copy keeps them (JSON lines look the same).
    blocks[i] = Object.freeze(order === FIRST ? { type, text } : { text, type })
  }
  return Object.freeze({ content: Object.freeze(blocks as ContentBlock[]), source: userSource })
}

const NOT = 0
const FIRST = 1
/**
 * Whether `value` is a plain object (prototype `Object.prototype`) whose enumerable keys,
 * inherited ones included, are exactly `a` and `b` (one key when they are the same), with no own
 * symbol keys; and if so, which comes first. One pass, as this runs per block of every send.
 *
 * @returns `NOT` (0), `FIRST` (1) when `a` comes first, or 2 when `b` does.
 */
const keyOrder = (value: unknown, a: string, b: string): number => {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype)
    return NOT
  let count = 0
  let order = NOT
  for (const key in value) {
    if (key !== a && key !== b) return NOT
    if (count === 0) order = key === a ? FIRST : 2
    count++
  }
  return count === (a === b ? 1 : 2) && Object.getOwnPropertySymbols(value).length === 0 ? order : NOT
}

const INPUT: Path = Object.freeze(['input'])
/**
 * `send`'s input (R1, R2), checked as `parseContextInput` checks user input, but the string `s`
 * when the value is the string shorthand's for `s` (the string itself, or data exactly equal to
 * it): the caller makes the message in one go and queues it compactly
 * (docs/performance.md#compact-queued-text).
 */
export const parseSendValue = (input: unknown, call = 'send()'): string | UserMessageData =>
  parseUserValue(input, call, INPUT)

/** `SendOptions`: exactly `{target: 'next-turn' | 'next-step', wakeup: boolean}`. Returns a frozen copy. */
export const parseSendOptions = (options: unknown, call = 'send()'): SendOptions => {
  const result = guarded(call, ['options'], () => sendOptionsSchema.safeParse(options))
  if (!result.success) {
    const issues = toInputIssues(result.error, ['options'], options)
    throw new InvalidInputError(
      call,
      withHints(issues, (at) => (at === 'options' ? options : undefined)),
    )
  }
  const { target, wakeup, ifBusy, turn } = result.data
  if (ifBusy === undefined && turn === undefined) return Object.freeze({ target, wakeup })
  return Object.freeze({
    target,
    wakeup,
    ...(ifBusy === undefined ? {} : { ifBusy }),
    ...(turn === undefined ? {} : { turn }),
  })
}

/**
 * The options of a preset (`followup(x, {ifBusy})`, `steer(x, {ifBusy, turn})`, `inject(x,
 * {ifBusy})`) merged into its `SendOptions`; the preset itself when none are given.
 */
export const parsePresetOptions = (options: unknown, preset: SendOptions, call: string): SendOptions => {
  if (options === undefined) return preset
  const schema = preset.target === 'next-step' && preset.wakeup ? steerOptionsSchema : presetOptionsSchema
  const result = guarded(call, ['options'], () => schema.safeParse(options))
  if (!result.success) throw new InvalidInputError(call, toInputIssues(result.error, ['options'], options))
  return parseSendOptions({ ...preset, ...result.data }, call)
}

/**
 * `cancel(cause, options?)` (V5): the cause is exactly `{kind: 'user'}` or `{kind: 'parent'}`,
 * options are `undefined` or `{keepInbox?: boolean}`; extra keys are refused. Issues of both
 * arguments are reported together. Returns frozen copies.
 */
export const parseCancelArgs = (
  cause: unknown,
  options: unknown,
): { readonly cause: AgentCancelCause; readonly options: CancelOptions } => {
  const causeResult = guarded('cancel()', ['cause'], () => cancelCauseSchema.safeParse(cause))
  const optionsResult = guarded('cancel()', ['options'], () => cancelOptionsSchema.safeParse(options))
  const issues: InputIssue[] = withHints(
    causeResult.success ? [] : toInputIssues(causeResult.error, ['cause'], cause),
    (at) => (at === 'cause' ? cause : undefined),
  )
  if (!optionsResult.success)
    for (const issue of toInputIssues(optionsResult.error, ['options'], options))
      issues.push(
        issue.message === 'unknown key'
          ? { path: issue.path, message: 'unknown key; the only option is keepInbox' }
          : issue,
      )
  if (!causeResult.success || !optionsResult.success) throw new InvalidInputError('cancel()', issues)
  const keepInbox = optionsResult.data?.keepInbox
  return Object.freeze({
    cause: Object.freeze({ kind: causeResult.data.kind }),
    options: Object.freeze(keepInbox === undefined ? {} : { keepInbox }),
  })
}
