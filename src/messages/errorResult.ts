import type { ToolResultBlock, ToolResultCode } from '../contracts/messages.js'

/**
 * A call's error result with its code: what the tool runner writes for a call it refused, and
 * what the loop writes itself for a call that did not run or did not finish.
 */
export const errorResult = (toolCallId: string, code: ToolResultCode, text: string): ToolResultBlock => ({
  type: 'tool-result',
  toolCallId,
  content: [{ type: 'text', text }],
  isError: true,
  code,
})
