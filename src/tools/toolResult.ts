import * as z from 'zod/mini'
import type { ContentBlock, ToolResultBlock } from '../contracts/messages.js'
import { errorResult } from '../messages/errorResult.js'
import { errorText } from '../messages/errorText.js'
import { DEFAULT_MAX_BLOCK_BYTES, oversizeIssues } from '../messages/mediaBlocks.js'
import { safeParse } from '../messages/safeParse.js'
import { contentBlockSchema } from '../messages/schemas.js'
import { jsonSnapshot } from '../messages/snapshot.js'
import { toInputIssues } from '../messages/toInputIssues.js'

export { errorResult }

const toolResultShape = z.object({
  content: z.union([z.string(), z.array(contentBlockSchema)]),
  isError: z.optional(z.boolean()),
})

const blocksSchema = z.array(contentBlockSchema)

const text = (value: string): ContentBlock[] => [{ type: 'text', text: value }]

/** Whether a value that is no `ToolResult` still meant to be one with an image or file (R86). */
const claimsMedia = (value: unknown): value is { readonly content: readonly unknown[] } => {
  const content = (value as { content?: unknown } | null)?.content
  return (
    Array.isArray(content) &&
    content.some((b) => {
      const type = (b as { type?: unknown } | null)?.type
      return type === 'image' || type === 'file'
    })
  )
}

const invalidMedia = (toolCallId: string, issue: { path: readonly (string | number)[]; message: string }) =>
  errorResult(
    toolCallId,
    'INVALID_RESULT',
    `The tool returned an invalid block at ${issue.path.join('.')}: ${issue.message}`,
  )

/**
 * Turns what `execute` produced into a result block: a `ToolResult` is taken as it is, a string
 * becomes text, any other JSON value becomes its JSON text, `undefined` an empty result. A value
 * that is not JSON is an `INVALID_RESULT` error, so the model is told instead of the turn failing;
 * so is a result with an image or file block that is malformed or over `maxBlockBytes` (R86).
 */
export const toResultBlock = (
  toolCallId: string,
  value: unknown,
  maxBlockBytes = DEFAULT_MAX_BLOCK_BYTES,
): ToolResultBlock => {
  if (value === undefined) return { type: 'tool-result', toolCallId, content: [] }
  if (typeof value === 'string') return { type: 'tool-result', toolCallId, content: text(value) }
  const snapshot = jsonSnapshot(value, 'result')
  if (!snapshot.ok) {
    const issue = snapshot.issues[0]
    return errorResult(
      toolCallId,
      'INVALID_RESULT',
      `The tool returned a value that is not JSON: ${issue?.message}`,
    )
  }
  const shaped = safeParse(toolResultShape, snapshot.value)
  if (!shaped.success && claimsMedia(snapshot.value)) {
    const blocks = safeParse(blocksSchema, snapshot.value.content)
    const issue = blocks.success
      ? undefined
      : toInputIssues(blocks.error, ['result', 'content'], snapshot.value.content)[0]
    if (issue) return invalidMedia(toolCallId, issue)
  }
  if (shaped.success && typeof snapshot.value === 'object' && snapshot.value && 'content' in snapshot.value) {
    const { content, isError } = shaped.data
    const oversize =
      typeof content === 'string'
        ? undefined
        : oversizeIssues(content, maxBlockBytes, ['result', 'content'])[0]
    if (oversize) return invalidMedia(toolCallId, oversize)
    return {
      type: 'tool-result',
      toolCallId,
      content: typeof content === 'string' ? text(content) : (content as ContentBlock[]),
      ...(isError ? { isError: true, code: 'TOOL_ERROR' as const } : {}),
    }
  }
  return { type: 'tool-result', toolCallId, content: text(JSON.stringify(snapshot.value)) }
}

export const thrownResult = (toolCallId: string, error: unknown): ToolResultBlock =>
  errorResult(toolCallId, 'TOOL_ERROR', `The tool failed: ${errorText(error)}`)
