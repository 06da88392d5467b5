import type { AgentCancelCause, CancelOptions } from '../contracts/messages.js'
import { checkInput } from './checkInput.js'
import { withHints } from './hints.js'
import { cancelCauseSchema, cancelOptionsSchema } from './schemas.js'

/**
 * `cancel(cause, options?)` (V5): the cause is exactly `{kind: 'user'}` or `{kind: 'parent'}`,
 * options are `undefined` or `{keepInbox?: boolean}`; extra keys are refused. Issues of both
 * arguments are reported together. Returns frozen copies.
 */
export const parseCancelArgs = (
  cause: unknown,
  options: unknown,
): { readonly cause: AgentCancelCause; readonly options: CancelOptions } =>
  checkInput('cancel()', (check) => {
    // The cause's messages show the call to make: cancel({kind: 'user'}), not cancel('user').
    const checkedCause = check.parse(cancelCauseSchema, cause, ['cause'], (issues) =>
      withHints(issues, (at) => (at === 'cause' ? cause : undefined)),
    )
    const checkedOptions = check.parse(cancelOptionsSchema, options, ['options'])
    const keepInbox = checkedOptions?.keepInbox
    return Object.freeze({
      cause: Object.freeze({ kind: checkedCause?.kind as AgentCancelCause['kind'] }),
      options: Object.freeze(keepInbox === undefined ? {} : { keepInbox }),
    })
  })
