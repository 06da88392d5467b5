/**
 * Zod schemas for the data model of docs/contract.md, section 2. Each one validates exactly the matching type
 * of `types.ts` (the annotations make the compiler check that). Inputs reach these schemas after
 * `jsonSnapshot`, so they are already plain JSON; the schemas still check JSON-ness of the open
 * parts (extra source fields, `change`) so that they also hold on their own.
 */
import { z } from 'zod'
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
const toolCallBlockSchema = z.strictObject({
  type: z.literal('tool-call'),
  id: z.string(),
  name: z.string(),
  arguments: z.string(),
})
const toolResultBlockSchema = z.strictObject({
  type: z.literal('tool-result'),
  toolCallId: z.string(),
  get content(): z.ZodArray<z.ZodType<ContentBlock>> {
    return z.array(contentBlockSchema)
  },
  isError: z.boolean().optional(),
  code: z.enum(toolResultCodes).optional(),
})

/** Adds the issues of `mediaBlockIssues` (media type, base64, URL scheme) to a block's parse. */
const checkMedia = (block: MediaBlock, ctx: z.RefinementCtx): void => {
  for (const issue of mediaBlockIssues(block, []))
    ctx.addIssue({ code: 'custom', path: [...issue.path], message: issue.message })
}
/** An image or file (R86): exactly one of `data` (base64) and `url` (http(s) or data:). */
const imageBlockSchema = z
  .strictObject({
    type: z.literal('image'),
    mediaType: z.string(),
    data: z.string().optional(),
    url: z.string().optional(),
  })
  .superRefine((block, ctx) => checkMedia(block as MediaBlock, ctx))
const fileBlockSchema = z
  .strictObject({
    type: z.literal('file'),
    mediaType: z.string(),
    data: z.string().optional(),
    url: z.string().optional(),
    filename: z.string().optional(),
  })
  .superRefine((block, ctx) => checkMedia(block as MediaBlock, ctx))

/**
 * One content block; unknown block types and unknown keys are refused. (`.optional()` types a
 * key as possibly `undefined`; what is checked is a JSON snapshot, which never holds one, so the
 * output is exactly a `ContentBlock`. `.exactOptional()` would say so, but zod 4.0 and 4.1 lack it,
 * and zod is a peer from 4.0.)
 */
export const contentBlockSchema = z.discriminatedUnion('type', [
  textBlockSchema,
  reasoningBlockSchema,
  toolCallBlockSchema,
  toolResultBlockSchema,
  imageBlockSchema,
  fileBlockSchema,
]) as unknown as z.ZodType<ContentBlock>

/** Plain JSON (checked by `jsonSnapshot`: `z.json()` is ~50x slower and accepts class instances). */
export const jsonValueSchema = z.custom<JsonValue>((value) => jsonSnapshot(value, 'value').ok, {
  message: 'expected plain JSON',
})
const extraJson = jsonValueSchema
const userSourceSchema = z.object({ kind: z.literal('user') }).catchall(extraJson)
const pluginSourceSchema = z.object({ kind: z.literal('plugin'), plugin: z.string() }).catchall(extraJson)
const toolSourceSchema = z.object({ kind: z.literal('tool'), tool: z.string() }).catchall(extraJson)
const goalSourceSchema = z
  .object({
    kind: z.literal('goal'),
    goalId: z.string().min(1),
    revision: z.int().min(0),
    round: z.int().min(0),
    change: jsonValueSchema.optional(),
  })
  .catchall(extraJson)
const customSourceSchema = z.object({ kind: z.string().min(1) }).catchall(extraJson)

const knownSourceSchemas: Readonly<Record<string, z.ZodType>> = {
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
export const messageSourceSchema = z.custom<MessageSource>().superRefine((value, ctx) => {
  const kind = typeof value === 'object' && value !== null ? (value as { kind?: unknown }).kind : undefined
  const schema =
    (typeof kind === 'string' && Object.hasOwn(knownSourceSchemas, kind) && knownSourceSchemas[kind]) ||
    customSourceSchema
  const result = schema.safeParse(value)
  if (!result.success) for (const issue of result.error.issues) ctx.addIssue({ ...issue })
})

/**
 * `{content, source}`, content non-empty. Other top-level keys are stripped (an `AgentMessage` can be
 * re-sent).
 */
export const userMessageDataSchema: z.ZodType<UserMessageData> = z.object({
  content: z.array(contentBlockSchema).min(1),
  source: messageSourceSchema,
})

const ifBusySchema = z.enum(['accept', 'reject', 'interrupt'])
const onApprovalSchema = z.enum(['hold', 'deny'])
const turnSchema = z.int().min(1)

/** A followup's step cap (R81): a whole number, 1 or more, or `Infinity` for no cap (R116). */
const maxStepsSchema = z.custom<number>(
  (value) => value === Number.POSITIVE_INFINITY || (Number.isSafeInteger(value) && (value as number) >= 1),
  { message: 'expected a whole number, 1 or more, or Infinity for no cap' },
)

/**
 * `SendOptions`: `target` and `wakeup`, and optionally `ifBusy` and a turn guard. A guard needs
 * `target: 'next-step'`, and `ifBusy: 'interrupt'` needs `wakeup: true` (R47, R49).
 */
export const sendOptionsSchema = z
  .strictObject({
    target: z.enum(['next-turn', 'next-step']),
    wakeup: z.boolean(),
    ifBusy: ifBusySchema.optional(),
    turn: turnSchema.optional(),
    onApproval: onApprovalSchema.optional(),
    maxSteps: maxStepsSchema.optional(),
    interrupt: z.boolean().optional(),
  })
  .superRefine((o, ctx) => {
    if (o.interrupt === true && !(o.target === 'next-step' && o.wakeup))
      ctx.addIssue({
        code: 'custom',
        path: ['interrupt'],
        message:
          "interrupt needs target: 'next-step' and wakeup: true (steer(x, {interrupt: true}) cuts the step that streams)",
      })
    if (o.maxSteps !== undefined && !(o.target === 'next-turn' && o.wakeup))
      ctx.addIssue({
        code: 'custom',
        path: ['maxSteps'],
        message: "maxSteps needs target: 'next-turn' and wakeup: true (a followup opens the turn it limits)",
      })
    if (o.turn !== undefined && o.target !== 'next-step')
      ctx.addIssue({
        code: 'custom',
        path: ['turn'],
        message: "a turn guard needs target: 'next-step' (steer(x, {turn}))",
      })
    if (o.ifBusy === 'interrupt' && !o.wakeup)
      ctx.addIssue({
        code: 'custom',
        path: ['ifBusy'],
        message: "ifBusy: 'interrupt' needs wakeup: true (an interrupting send must run next)",
      })
  }) as unknown as z.ZodType<SendOptions>

/** The options of `inject`. */
export const presetOptionsSchema = z.strictObject({
  ifBusy: ifBusySchema.optional(),
  onApproval: onApprovalSchema.optional(),
})
/** The options of `followup`. */
export const followupOptionsSchema = z.strictObject({
  ifBusy: ifBusySchema.optional(),
  onApproval: onApprovalSchema.optional(),
  maxSteps: maxStepsSchema.optional(),
})
/** The options of `steer`. */
export const steerOptionsSchema = z.strictObject({
  ifBusy: ifBusySchema.optional(),
  turn: turnSchema.optional(),
  onApproval: onApprovalSchema.optional(),
  interrupt: z.boolean().optional(),
})

export const cancelCauseSchema: z.ZodType<AgentCancelCause> = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('user') }),
  z.strictObject({ kind: z.literal('parent') }),
])

/** `{keepInbox?}`; `undefined` (no options) is allowed. */
export const cancelOptionsSchema: z.ZodType<CancelOptions | undefined> = z
  .strictObject({ keepInbox: z.boolean().optional() })
  .optional() as z.ZodType<CancelOptions | undefined>
