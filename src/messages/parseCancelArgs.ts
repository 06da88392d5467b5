import { type InputIssue, InvalidInputError } from '../contracts/errors.js'
import type { AgentCancelCause, CancelOptions } from '../contracts/messages.js'
import { guarded } from './guarded.js'
import { withHints } from './hints.js'
import { cancelCauseSchema, cancelOptionsSchema } from './schemas.js'
import { toInputIssues } from './toInputIssues.js'

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
