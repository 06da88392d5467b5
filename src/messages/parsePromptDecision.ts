import * as z from 'zod/mini'
import type { ContentBlock, UserMessageData } from '../contracts/messages.js'
import { checkInput, type InputCheck } from './checkInput.js'
import { goalStateTextIssue, isGoalStateText } from './goalMessageIssue.js'
import { parseContextInput } from './parseContextInput.js'
import { contentBlockSchema } from './schemas.js'
import { isPlainObject, jsonSnapshot, type Path } from './snapshot.js'

/** The prompt as rewritten so far by a chain of `promptSubmit` hooks. */
export type DecisionAcc = {
  readonly content: readonly ContentBlock[]
  readonly rewritten: boolean
  readonly contexts: readonly UserMessageData[]
  readonly blocked: boolean
  readonly reason?: unknown
}

const CALL = 'promptSubmit decision'
const contentSchema = z.array(contentBlockSchema).check(z.minLength(1))
const pluginSource = { kind: 'plugin', plugin: 'promptSubmit' } as const
const CONTENT: Path = ['decision', 'content']
const CONTEXTS: Path = ['decision', 'additionalContexts']

/**
 * Applies one hook's decision (`undefined` means allow). Each hook sees the prompt as rewritten
 * so far; contexts accumulate; a `block` wins. A decision that fails validation throws
 * `InvalidInputError` listing every problem, which the runner reports as a hook failure (R13).
 *
 * A string in `content` is a one-text-block rewrite; a string in `additionalContexts` is text
 * whose source is `{kind:'plugin', plugin:'promptSubmit'}` (a context is not a human prompt).
 */
export const parsePromptDecision = (acc: DecisionAcc, decision: unknown): DecisionAcc =>
  decision === undefined ? acc : checkInput(CALL, (check) => parseDecided(check, acc, decision))

const parseDecided = (check: InputCheck, acc: DecisionAcc, decision: unknown): DecisionAcc => {
  if (!isPlainObject(decision)) {
    check.add(['decision'], "expected an object such as {kind: 'allow'} or {kind: 'block', reason}")
    return acc
  }
  if (decision.kind === 'block') return { ...acc, blocked: true, reason: decision.reason }
  if (decision.kind !== 'allow') check.add(['decision', 'kind'], "expected 'allow' or 'block'")
  const content = decision.content === undefined ? undefined : parseContent(check, decision.content)
  const contexts = parseContexts(check, decision.additionalContexts)
  return {
    ...acc,
    ...(content === undefined ? {} : { rewritten: true, content }),
    ...(contexts.length === 0 ? {} : { contexts: [...acc.contexts, ...contexts] }),
  }
}

const parseContexts = (check: InputCheck, contexts: unknown): readonly UserMessageData[] => {
  if (contexts === undefined) return []
  if (!Array.isArray(contexts)) {
    check.add(CONTEXTS, 'expected an array of contexts: strings, or {content, source}')
    return []
  }
  const parsed: UserMessageData[] = []
  contexts.forEach((input, i) => {
    const context = check.attempt([...CONTEXTS, i], () =>
      parseContextInput(input, pluginSource, CALL, [...CONTEXTS, i]),
    )
    if (context !== undefined) parsed.push(context)
  })
  return parsed
}

const parseContent = (check: InputCheck, content: unknown): readonly ContentBlock[] | undefined => {
  if (typeof content === 'string') {
    if (isGoalStateText(content)) return void check.addAll([goalStateTextIssue(CONTENT)])
    return Object.freeze([Object.freeze({ type: 'text' as const, text: content })])
  }
  const snapshot = jsonSnapshot(content, CONTENT)
  if (!snapshot.ok) return void check.addAll(snapshot.issues)
  const blocks = check.parse(contentSchema, snapshot.value, CONTENT)
  // Goal state is written only by a goal controller, under a goal source (R33): a rewrite into it
  // would be written under the prompt's own source, and no fold of the log would accept it again.
  const first = blocks?.[0]
  if (first?.type === 'text' && isGoalStateText(first.text))
    return void check.addAll([goalStateTextIssue([...CONTENT, 0, 'text'])])
  // The schema neither strips nor transforms: the frozen snapshot is the checked value.
  return blocks === undefined ? undefined : (snapshot.value as readonly ContentBlock[])
}
