import type { Usage } from '../contracts/messages.js'
import type { StepDraft } from './activity.js'

/** About 4 characters a token: the estimate R73 asks for when a provider sent no usage. */
export const estimateTokens = (chars: number): number => Math.ceil(chars / 4)

/** What the model wrote in this step, in characters: text, reasoning and tool calls. */
const outputChars = (draft: StepDraft): number => {
  let chars = 0
  for (const block of draft.content) {
    if (block.type === 'text' || block.type === 'reasoning') chars += block.text.length
    else if (block.type === 'tool-call') chars += block.name.length + block.arguments.length
  }
  return chars
}

/**
 * The usage to record for the step's request (R73): what the provider reported, else an estimate
 * marked `estimated`: the prompt's size as measured when the request was made, and the output
 * from what streamed.
 */
export const requestUsage = (draft: StepDraft): Usage =>
  draft.usage ?? {
    inputTokens: draft.inputEstimate ?? 0,
    outputTokens: estimateTokens(outputChars(draft)),
    estimated: true,
  }

/** Usage the provider reported before its finish merges into what came earlier (R69). */
export const mergeUsage = (earlier: Usage | undefined, later: Usage): Usage =>
  earlier === undefined ? later : { ...earlier, ...later }
