import { z } from 'zod'
import type { ContentBlock, ToolResultBlock } from '../contracts/messages.js'
import { errorResult } from '../messages/errorResult.js'
import { errorText } from '../messages/errorText.js'
import { contentBlockSchema } from '../messages/schemas.js'
import { jsonSnapshot } from '../messages/snapshot.js'

export { errorResult }

const toolResultShape = z.object({
  content: z.union([z.string(), z.array(contentBlockSchema)]),
  isError: z.boolean().optional(),
})

const text = (value: string): ContentBlock[] => [{ type: 'text', text: value }]

/**
 * Turns what `execute` produced into a result block: a `ToolResult` is taken as it is, a string
 * becomes text, any other JSON value becomes its JSON text, `undefined` an empty result. A value
 * that is not JSON is an `INVALID_RESULT` error, so the model is told instead of the turn failing.
 */
export const toResultBlock = (toolCallId: string, value: unknown): ToolResultBlock => {
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
  const shaped = toolResultShape.safeParse(snapshot.value)
  if (shaped.success && typeof snapshot.value === 'object' && snapshot.value && 'content' in snapshot.value) {
    const { content, isError } = shaped.data
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
