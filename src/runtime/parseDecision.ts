import { z } from 'zod'
import { InvalidInputError } from '../contracts/errors.js'
import type { ContentBlock, UserMessageData } from '../contracts/messages.js'
import { goalStateTextIssue, isGoalStateText } from '../messages/goalMessageIssue.js'
import { parseContextInput } from '../messages/parseContextInput.js'
import { contentBlockSchema } from '../messages/schemas.js'
import { isPlainObject, jsonSnapshot } from '../messages/snapshot.js'
import { toInputIssues } from '../messages/toInputIssues.js'

/** The prompt as rewritten so far by a chain of `promptSubmit` hooks. */
export type DecisionAcc = {
  readonly content: readonly ContentBlock[]
  readonly rewritten: boolean
  readonly contexts: readonly UserMessageData[]
  readonly blocked: boolean
  readonly reason?: unknown
}

const CALL = 'promptSubmit decision'
const contentSchema = z.array(contentBlockSchema).min(1)
const pluginSource = { kind: 'plugin', plugin: 'promptSubmit' } as const

/**
 * Applies one hook's decision (`undefined` means allow). Each hook sees the prompt as rewritten
 * so far; contexts accumulate; a `block` wins. A decision that fails validation throws
 * `InvalidInputError`, which the runner reports as a hook failure (R13).
 *
 * A string in `content` is a one-text-block rewrite; a string in `additionalContexts` is text
 * whose source is `{kind:'plugin', plugin:'promptSubmit'}` (a context is not a human prompt).
 */
export const parseDecision = (acc: DecisionAcc, decision: unknown): DecisionAcc => {
  if (decision === undefined) return acc
  if (!isPlainObject(decision))
    throw new InvalidInputError(CALL, [{ path: ['decision'], message: 'expected an object' }])
  if (decision.kind === 'block') return { ...acc, blocked: true, reason: decision.reason }
  if (decision.kind !== 'allow') {
    throw new InvalidInputError(CALL, [
      { path: ['decision', 'kind'], message: "expected 'allow' or 'block'" },
    ])
  }
  let next = acc
  if (decision.content !== undefined)
    next = { ...next, rewritten: true, content: parseContent(decision.content) }
  const contexts = decision.additionalContexts
  if (contexts !== undefined) {
    if (!Array.isArray(contexts)) {
      throw new InvalidInputError(CALL, [
        { path: ['decision', 'additionalContexts'], message: 'expected an array' },
      ])
    }
    const parsed = contexts.map((input, i) =>
      parseContextInput(input, pluginSource, CALL, ['decision', 'additionalContexts', i]),
    )
    next = { ...next, contexts: [...next.contexts, ...parsed] }
  }
  return next
}

const parseContent = (content: unknown): readonly ContentBlock[] => {
  const root = ['decision', 'content']
  if (typeof content === 'string') {
    if (isGoalStateText(content)) throw new InvalidInputError(CALL, [goalStateTextIssue(root)])
    return Object.freeze([Object.freeze({ type: 'text' as const, text: content })])
  }
  const snapshot = jsonSnapshot(content, root)
  if (!snapshot.ok) throw new InvalidInputError(CALL, snapshot.issues)
  const result = contentSchema.safeParse(snapshot.value)
  if (!result.success) throw new InvalidInputError(CALL, toInputIssues(result.error, root, snapshot.value))
  const blocks = snapshot.value as readonly ContentBlock[]
  // Goal state is written only by a goal controller, under a goal source (R33): a rewrite into it
  // would be written under the prompt's own source, and no fold of the log would accept it again.
  const first = blocks[0]
  if (first?.type === 'text' && isGoalStateText(first.text))
    throw new InvalidInputError(CALL, [goalStateTextIssue([...root, 0, 'text'])])
  return blocks
}
