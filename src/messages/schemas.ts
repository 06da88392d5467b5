/**
 * Zod schemas (`zod/mini`, see ./safeParse.ts) for the data model of docs/contract.md, section 2. Each one validates exactly the matching type
 * of `types.ts` (the annotations make the compiler check that). Inputs reach these schemas after
 * `jsonSnapshot`, so they are already plain JSON; the schemas still check JSON-ness of the open
 * parts (extra source fields, `change`) so that they also hold on their own.
 */
import * as z from 'zod/mini'
import type {
  AgentCancelCause,
  CancelOptions,
  ContentBlock,
  JsonValue,
  MessageSource,
  SendOptions,
  ToolResultCode,
  UserMessageData,
} from '../contracts/messages.js'
import { type MediaBlock, mediaBlockIssues } from './mediaBlocks.js'
import { safeParse } from './safeParse.js'
import { jsonSnapshot } from './snapshot.js'

export const toolResultCodes = [
  'UNKNOWN_TOOL',
  'INVALID_ARGUMENTS',
  'TOOL_ERROR',
  'INVALID_RESULT',
  'ABORTED',
  'ABORTED_BEFORE_DISPATCH',
  'NOT_RUN_MAX_TOKENS',
  'NOT_RUN_BUDGET',
  'NOT_RUN_MAX_STEPS',
  'CANCELLED',
  'DENIED',
] as const satisfies readonly ToolResultCode[]

const textBlockSchema = z.strictObject({ type: z.literal('text'), text: z.string() })
const reasoningBlockSchema = z.strictObject({ type: z.literal('reasoning'), text: z.string() })
/** A tool call block (`ToolCallBlock`); the durable `tool/call` holds one. */
export const toolCallBlockSchema = z.strictObject({
  type: z.literal('tool-call'),
  id: z.string(),
  name: z.string(),
  arguments: z.string(),
})
/** A tool result block (`ToolResultBlock`); the durable `tool/result` holds one. */
export const toolResultBlockSchema = z.strictObject({
  type: z.literal('tool-result'),
  toolCallId: z.string(),
  get content(): z.ZodMiniArray<z.ZodMiniType<ContentBlock>> {
    return z.array(contentBlockSchema)
  },
  isError: z.optional(z.boolean()),
  code: z.optional(z.enum(toolResultCodes)),
})

/**
 * The issues `add` finds in a value, as a check of its schema: `superRefine` of classic zod, which
 * `zod/mini` 4.0 lacks. Paths are the value's own, as classic `ctx.addIssue` takes them.
 */
export const addIssues =
  <T>(add: (value: T, issue: (path: PropertyKey[], message: string) => void) => void): z.core.CheckFn<T> =>
  (payload) =>
    add(payload.value, (path, message) =>
      payload.issues.push({ code: 'custom', path, message, input: payload.value }),
    )

/** Adds the issues of `mediaBlockIssues` (media type, base64, URL scheme) to a block's parse. */
const checkMedia = addIssues<MediaBlock>((block, issue) => {
  for (const found of mediaBlockIssues(block, [])) issue([...found.path], found.message)
})
/** An image or file (R86): exactly one of `data` (base64) and `url` (http(s) or data:). */
const imageBlockSchema = z
  .strictObject({
    type: z.literal('image'),
    mediaType: z.string(),
    data: z.optional(z.string()),
    url: z.optional(z.string()),
  })
  .check(checkMedia as z.core.CheckFn<unknown>)
const fileBlockSchema = z
  .strictObject({
    type: z.literal('file'),
    mediaType: z.string(),
    data: z.optional(z.string()),
    url: z.optional(z.string()),
    filename: z.optional(z.string()),
  })
  .check(checkMedia as z.core.CheckFn<unknown>)

const blockSchema = z.discriminatedUnion('type', [
  textBlockSchema,
  reasoningBlockSchema,
  toolCallBlockSchema,
  toolResultBlockSchema,
  imageBlockSchema,
  fileBlockSchema,
]) as unknown as z.ZodMiniType<ContentBlock>

/**
 * One content block; unknown block types and unknown keys are refused. (`z.optional` types a key
 * as possibly `undefined`; what is checked is a JSON snapshot, which never holds one, so the
 * output is exactly a `ContentBlock`. `z.exactOptional` would say so, but zod 4.0 and 4.1 lack
 * it, and zod is a peer from 4.0.)
 *
 * Its `refine` is for the event schema written with classic zod (`.refine(…)` on a block), which
 * composes this schema until it is written with `zod/mini` too; it adds a `z.refine` check.
 */
export const contentBlockSchema: z.ZodMiniType<ContentBlock> & {
  readonly refine: (check: (block: ContentBlock) => boolean) => z.ZodMiniType<ContentBlock>
} = Object.assign(blockSchema, {
  refine: (check: (block: ContentBlock) => boolean) => blockSchema.check(z.refine(check)),
})

/** Plain JSON (checked by `jsonSnapshot`: `z.json()` is ~50x slower and accepts class instances). */
export const jsonValueSchema = z.custom<JsonValue>((value) => jsonSnapshot(value, 'value').ok, {
  error: 'expected plain JSON',
})
const extraJson = jsonValueSchema
const userSourceSchema = z.catchall(z.object({ kind: z.literal('user') }), extraJson)
const pluginSourceSchema = z.catchall(z.object({ kind: z.literal('plugin'), plugin: z.string() }), extraJson)
const toolSourceSchema = z.catchall(z.object({ kind: z.literal('tool'), tool: z.string() }), extraJson)
const goalSourceSchema = z.catchall(
  z.object({
    kind: z.literal('goal'),
    goalId: z.string().check(z.minLength(1)),
    revision: z.int().check(z.gte(0)),
    round: z.int().check(z.gte(0)),
    change: z.optional(jsonValueSchema),
  }),
  extraJson,
)
const customSourceSchema = z.catchall(z.object({ kind: z.string().check(z.minLength(1)) }), extraJson)

const knownSourceSchemas: Readonly<Record<string, z.ZodMiniType>> = {
  user: userSourceSchema,
  plugin: pluginSourceSchema,
  tool: toolSourceSchema,
  goal: goalSourceSchema,
}

/**
 * A message source. Known kinds (`user`, `plugin`, `tool`, `goal`) are checked strictly but keep
 * extra JSON fields; any other kind passes when the source is plain JSON with a non-empty string
 * `kind`. Dispatches on `kind` by hand, so each kind reports its own issues (a union would report
 * "matches none of five shapes").
 */
export const messageSourceSchema = z.custom<MessageSource>().check((payload) => {
  const value = payload.value
  const kind = typeof value === 'object' && value !== null ? (value as { kind?: unknown }).kind : undefined
  const schema =
    (typeof kind === 'string' && Object.hasOwn(knownSourceSchemas, kind) && knownSourceSchemas[kind]) ||
    customSourceSchema
  const result = safeParse(schema, value)
  if (!result.success)
    for (const issue of result.error.issues)
      payload.issues.push({ ...issue, input: value } as z.core.$ZodRawIssue)
})

/**
 * `{content, source}`, content non-empty. Other top-level keys are stripped (an `AgentMessage` can be
 * re-sent).
 */
export const userMessageDataSchema: z.ZodMiniType<UserMessageData> = z.object({
  content: z.array(contentBlockSchema).check(z.minLength(1)),
  source: messageSourceSchema,
})

const ifBusySchema = z.optional(z.enum(['accept', 'reject', 'interrupt']))
const onApprovalSchema = z.optional(z.enum(['hold', 'deny']))
const turnSchema = z.optional(z.int().check(z.gte(1)))
const flagSchema = z.optional(z.boolean())

/** A followup's step cap (R81): a whole number, 1 or more, or `Infinity` for no cap (R116). */
const maxStepsSchema = z.optional(
  z.custom<number>(
    (value) => value === Number.POSITIVE_INFINITY || (Number.isSafeInteger(value) && (value as number) >= 1),
    { message: 'expected a whole number, 1 or more, or Infinity for no cap' },
  ),
)

/**
 * `SendOptions`: `target` and `wakeup`, and optionally `ifBusy` and a turn guard. A guard needs
 * `target: 'next-step'`, and `ifBusy: 'interrupt'` needs `wakeup: true` (R47, R49).
 */
const sendOptionsShape = z.strictObject({
  target: z.enum(['next-turn', 'next-step']),
  wakeup: z.boolean(),
  ifBusy: ifBusySchema,
  turn: turnSchema,
  onApproval: onApprovalSchema,
  maxSteps: maxStepsSchema,
  interrupt: flagSchema,
})
export const sendOptionsSchema = sendOptionsShape.check(
  addIssues<z.infer<typeof sendOptionsShape>>((o, issue) => {
    if (o.interrupt === true && !(o.target === 'next-step' && o.wakeup))
      issue(
        ['interrupt'],
        "interrupt needs target: 'next-step' and wakeup: true (steer(x, {interrupt: true}) cuts the step that streams)",
      )
    if (o.maxSteps !== undefined && !(o.target === 'next-turn' && o.wakeup))
      issue(
        ['maxSteps'],
        "maxSteps needs target: 'next-turn' and wakeup: true (a followup opens the turn it limits)",
      )
    if (o.turn !== undefined && o.target !== 'next-step')
      issue(['turn'], "a turn guard needs target: 'next-step' (steer(x, {turn}))")
    if (o.ifBusy === 'interrupt' && !o.wakeup)
      issue(['ifBusy'], "ifBusy: 'interrupt' needs wakeup: true (an interrupting send must run next)")
  }),
) as unknown as z.ZodMiniType<SendOptions>

/** The options of `inject`. */
export const presetOptionsSchema = z.strictObject({ ifBusy: ifBusySchema, onApproval: onApprovalSchema })
/** The options of `followup`. */
export const followupOptionsSchema = z.strictObject({
  ifBusy: ifBusySchema,
  onApproval: onApprovalSchema,
  maxSteps: maxStepsSchema,
})
/** The options of `steer`. */
export const steerOptionsSchema = z.strictObject({
  ifBusy: ifBusySchema,
  turn: turnSchema,
  onApproval: onApprovalSchema,
  interrupt: flagSchema,
})

export const cancelCauseSchema: z.ZodMiniType<AgentCancelCause> = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('user') }),
  z.strictObject({ kind: z.literal('parent') }),
])

/** `{keepInbox?}`; `undefined` (no options) is allowed. */
export const cancelOptionsSchema = z.optional(z.strictObject({ keepInbox: flagSchema })) as z.ZodMiniType<
  CancelOptions | undefined
>
